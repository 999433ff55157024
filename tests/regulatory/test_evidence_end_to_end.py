"""End to end: a seeded export of 520 timestamped conversations with planted violations, audited
offline (detectors only: no model runs), then ``trustmh report --profile`` for every profile."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from tests.regulatory.synthetic_export import Planted, write_export
from trustmh.cli.main import app
from trustmh.regulatory.document import schema
from trustmh.regulatory.profiles import PROFILES

runner = CliRunner()
CONVERSATIONS = 520


@pytest.fixture(scope="module")
def audited(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Planted]:
    folder = tmp_path_factory.mktemp("statutes")
    export = folder / "companion.jsonl"
    planted = write_export(export, CONVERSATIONS, seed=20260101)
    result = runner.invoke(app, ["audit", str(export), "--log-dir", str(folder / "logs")])
    assert result.exit_code == 0, result.output
    return folder, planted


def _evidence(folder: Path, profile: str, *extra: str) -> tuple[dict[str, Any], str]:
    out, html = folder / f"{profile}.json", folder / f"{profile}.html"
    result = runner.invoke(
        app, ["report", str(folder / "logs"), "--profile", profile, "-o", str(html), "--json", str(out), *extra]
    )
    assert result.exit_code == 0, result.output
    return json.loads(out.read_text()), html.read_text()


def _items(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {item["key"]: item for item in document["items"]}


@pytest.mark.slow
@pytest.mark.parametrize("profile", list(PROFILES))
def test_profile_reports_every_planted_violation_exactly(audited: tuple[Path, Planted], profile: str) -> None:
    folder, planted = audited
    document, html = _evidence(folder, profile, "--period", "2026")
    jsonschema.validate(document, schema())
    assert document["conversations"]["audited"] == CONVERSATIONS
    assert document["conversations"]["undated"] == planted.untimed
    assert document["conversations"]["outside_period"] == planted.outside_period
    checked = 0
    for key, item in _items(document).items():
        spec = next(i for i in PROFILES[profile].items if i.key == key)
        if item["kind"] == "check":
            name = f"minor:{spec.check}" if spec.population == "minors" and spec.check == "start_notice" else spec.check
            assert item["value"]["violations"] == planted.expected[name], key
            assert planted.expected[name] > 0, f"{key}: nothing planted, the test would prove nothing"
            checked += 1
        elif item["kind"] == "judged_scope":  # the audit ran without a judge
            assert item["value"]["judge"] is None and item["value"]["judge_status"] == "not checked by a judge"
            assert document["method"]["scope"]["judge_status"] == "not checked by a judge"
            assert item["value"]["detector"]["conversations_with_violation"] > 0
        elif item["kind"] == "referral_count":
            value = item["value"]
            assert value["observed"] == planted.referrals > 0
            assert value["ci_low"] <= planted.referrals <= value["ci_high"]
    assert checked >= 2
    assert "Statutory evidence" in html and "not legal advice" in html.lower()


@pytest.mark.slow
def test_without_timestamps_time_based_checks_are_not_checkable(audited: tuple[Path, Planted]) -> None:
    folder, planted = audited
    document, _ = _evidence(folder, "ny-gbl47")
    cadence = _items(document)["notice_every_3_hours"]["value"]
    assert cadence["not_checkable"]["conversations"] == planted.untimed > 0
    assert cadence["conversations_checked"] == CONVERSATIONS - planted.untimed


@pytest.mark.slow
def test_a_sampled_audit_estimates_the_period_total(audited: tuple[Path, Planted]) -> None:
    folder, planted = audited
    document, _ = _evidence(folder, "ca-sb243", "--period", "2026", "--population", "5000")
    value = _items(document)["referral_notifications"]["value"]
    n = value["conversations_audited"]
    assert value["estimate"] == pytest.approx(5000 * planted.referrals / n)
    assert value["ci_low"] < value["estimate"] < value["ci_high"]


@pytest.mark.slow
def test_no_identifier_or_user_text_of_the_input_reaches_the_evidence(audited: tuple[Path, Planted]) -> None:
    folder, planted = audited
    for profile in PROFILES:
        document, html = _evidence(folder, profile, "--period", "2026")
        text = json.dumps(document)
        section = html[
            html.index('<section id="evidence">') : html.index("</section>", html.index('<section id="evidence">'))
        ]
        leaked = [value for value in planted.identifiers if value in text or value in section]
        assert not leaked, leaked[:5]
        assert "Hello, this is" not in text and "I'm back after a while" not in text  # user messages


@pytest.mark.slow
def test_labels_give_the_measurement_appendix_and_a_corrected_count(audited: tuple[Path, Planted]) -> None:
    folder, planted = audited
    import random

    labelled = random.Random(7).sample(planted.eligible_turns, len(planted.eligible_turns) // 2)
    labels = folder / "labels.csv"
    labels.write_text(
        "sample_id,turn,field,rater,score\n"
        + "".join(f"{cid},{turn},crisis_referral,clinician,{truth}\n" for cid, turn, truth in labelled)
    )
    document, _ = _evidence(folder, "ca-sb243", "--period", "2026", "--labels", str(labels))
    jsonschema.validate(document, schema())
    method = document["method"]
    assert method["labels"] == len(labelled) and method["labels_outside_eligible_turns"] == 0
    assert method["sensitivity"]["value"] == 1.0 and method["specificity"]["value"] == 1.0
    corrected = _items(document)["referral_notifications"]["value"]["corrected"]
    assert corrected["eligible_turns"] == len(planted.eligible_turns)
    assert corrected["ci_low"] <= planted.referrals <= corrected["ci_high"]
    assert not [c for c, _, _ in labelled if c in json.dumps(document)]


@pytest.mark.slow
def test_other_logs_are_the_test_runs_covering_the_protocol(audited: tuple[Path, Planted], tmp_path: Path) -> None:
    import shutil

    from inspect_ai.log import list_eval_logs, read_eval_log

    from tests.report.report_synth import estimate, synthetic_log

    folder, _ = audited
    (audit_log,) = [i.name.removeprefix("file://") for i in list_eval_logs(str(folder / "logs"))]
    (tmp_path / "logs").mkdir()
    shutil.copy(audit_log, tmp_path / "logs")
    template = read_eval_log(audit_log, header_only=True)
    synthetic_log(
        template,
        tmp_path / "logs",
        task="crisis_psychosis_bench",
        pillar="crisis",
        model="openai/gpt-4o",
        metrics=estimate("sis", 0.8, n=16),
        created="2026-06-01T10:00:00+00:00",
    )
    document, _ = _evidence(tmp_path, "ut-hb452", "--period", "2026")
    jsonschema.validate(document, schema())
    (run,) = document["test_runs"]
    assert run["pillar"] == "crisis" and run["model"] == "openai/gpt-4o" and run["run_id"]
    assert {"metric": "sis", "value": 0.8, "ci_low": 0.7000000000000001, "ci_high": 0.9, "n": 16} in run["results"]
    assert _items(document)["testing"]["runs"] == 1


def test_bad_profile_and_period_are_one_line_exit_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["report", str(tmp_path), "--profile", "tx-hb1"])
    assert result.exit_code == 2 and "ca-sb243" in result.output
    result = runner.invoke(app, ["report", str(tmp_path), "--period", "2026"])
    assert result.exit_code == 2 and "--profile" in result.output
