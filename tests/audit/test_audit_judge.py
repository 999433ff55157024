"""``trustmh audit --judge`` against an OpenAI-compatible test server: DCS/HES/SIS per turn, and with
``--redact`` no planted name, email or phone of the export reaches the server."""

from __future__ import annotations

import csv
import json
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.audit.audit_helpers import EXAMPLE_JSONL, RubricJudge, audit_log, metrics
from tests.conftest import REPO_ROOT as REPO
from tests.doubles.openai_double import OpenAIDouble
from tests.hardening.hardening_cli import isolated_env, run_cli
from trustmh.audit.redaction import MAP_FILE
from trustmh.audit.run import FLAGGED_FILE
from trustmh.cli.main import app

runner = CliRunner()
# Planted in the example export (c-002, c-007, c-009): every one must stay on this machine.
PLANTED = (
    "Priya",
    "Raman",
    "Tom",
    "Laura",
    "tom.baker@example.com",
    "jordan.miles@example.org",
    "07700 900123",
    "900123",
    "415 555 0137",
    "555 0137",
    "42 Elm Street",
    "AB123456",
)


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, RubricJudge]:
    log_dir = tmp_path_factory.mktemp("audit-judged")
    judge = RubricJudge()
    with pytest.MonkeyPatch.context() as patch, OpenAIDouble(responder=judge) as server:
        patch.setenv("OPENAI_BASE_URL", server.base_url)
        patch.setenv("OPENAI_API_KEY", "sk-test-audit-0000")
        result = runner.invoke(
            app, ["audit", str(EXAMPLE_JSONL), "--redact", "--judge", "openai/test-judge", "--log-dir", str(log_dir)]
        )
    assert result.exit_code == 0, result.output
    return log_dir, judge


def test_no_planted_identifier_reaches_the_judge(judged: tuple[Path, RubricJudge]) -> None:
    _, judge = judged
    assert len(judge.received) == 4 * 17  # DCS, HES, SIS and the scope question on each of the 17 assistant turns
    sent = "\n".join(judge.received)
    assert not [p for p in PLANTED if p in sent]
    assert "[EMAIL_" in sent and "[NAME_" in sent and "[PHONE_" in sent  # replaced, not dropped


def test_the_map_stays_local_and_owner_only(judged: tuple[Path, RubricJudge]) -> None:
    log_dir, _ = judged
    path = log_dir / MAP_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    originals = set(json.loads(path.read_text(encoding="utf-8"))["placeholders"].values())
    assert {"tom.baker@example.com", "Priya Raman"} <= originals


def test_log_holds_redacted_text_only(judged: tuple[Path, RubricJudge]) -> None:
    log_dir, _ = judged
    text = "\n".join(m.text for s in audit_log(log_dir).samples or [] for m in s.messages)
    assert "foil" in text and not [p for p in PLANTED if p in text]


def test_judge_metrics_with_cis(judged: tuple[Path, RubricJudge]) -> None:
    found = metrics(audit_log(judged[0]))
    assert found["validation_rate"] == pytest.approx(1 / 12)  # c-006 confirms the delusion
    assert found["harm_enablement_rate"] == pytest.approx(1 / 12)
    assert found["no_intervention_rate"] == pytest.approx(1.0) and found["no_intervention_rate_n"] == 5
    assert found["dcs_n"] == 12 and found["judge_unparsed_share"] == 0
    assert found["missed_crisis_rate"] == pytest.approx(2 / 5)  # detectors still run


def test_flagged_csv_read_back_by_judge_check(judged: tuple[Path, RubricJudge], tmp_path: Path) -> None:
    log_dir, _ = judged
    with (log_dir / FLAGGED_FILE).open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    judged_rows = [r for r in rows if r["field"] in ("dcs", "hes")]
    assert {(r["sample_id"], r["field"]) for r in judged_rows} >= {("c-006", "dcs"), ("c-006", "hes")}
    labelled = tmp_path / "labelled.csv"
    with labelled.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        for row in judged_rows:  # the reviewer agrees on DCS, rates HES one lower
            writer.writerow({**row, "score": "2" if row["field"] == "dcs" else "0"})
    (log,) = log_dir.glob("*.eval")
    result = runner.invoke(app, ["judge-check", "--log", str(log), "--human", str(labelled), "--bootstrap", "0"])
    assert result.exit_code == 0, result.output
    assert "dcs (per turn)" in result.output and "hes (per turn)" in result.output


def test_max_cost_stops_the_judge_and_the_rerun_resumes(tmp_path: Path) -> None:
    """Each run is its own process, as a user runs it. (Run in-process after the other tests of
    this file, the capped run did not end: an open bug between the cap stop and a judge model
    object the earlier tests left in inspect's cache; see the session's closing note.)"""
    prices = tmp_path / "prices.yaml"
    prices.write_text("openai/test-judge: {input: 100, output: 100}\n", encoding="utf-8")  # USD per 1M tokens
    log_dir = tmp_path / "logs"
    args = ["audit", str(EXAMPLE_JSONL), "--judge", "openai/test-judge", "--log-dir", str(log_dir), "--no-report"]
    judge = RubricJudge()
    home = tmp_path / "home"
    home.mkdir()
    with OpenAIDouble(responder=judge) as server:
        env = isolated_env(home, OPENAI_BASE_URL=server.base_url, OPENAI_API_KEY="sk-test-audit-0000")
        capped = run_cli([*args, "--max-cost", "0.5", "--prices", str(prices), "--max-connections", "1"], REPO, env)
        output = capped.stdout + capped.stderr
        assert capped.returncode == 3, output
        assert "Rerun the same command to resume" in " ".join(output.split())
        sent_under_cap = len(judge.received)
        assert 0 < sent_under_cap < 4 * 17  # four rubrics on each of the 17 turns
        finished = run_cli(args, REPO, env)
    assert finished.returncode == 0, finished.stdout + finished.stderr
    assert len(judge.received) < sent_under_cap + 4 * 17  # the conversations judged under the cap are not judged again
