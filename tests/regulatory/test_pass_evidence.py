"""``trustmh report --profile`` over a detector pass's Parquet rows gives the same values as over the
audit log of the same conversations (and keeps no identifier of them)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from tests.regulatory.synthetic_export import Planted, write_export
from trustmh.cli.main import app
from trustmh.regulatory.profiles import PROFILES

runner = CliRunner()
CONVERSATIONS = 150


def _untimed(record: dict[str, Any]) -> dict[str, Any]:
    """The conversation without message times and metadata (what the warehouse readers carry)."""
    return {"id": record["id"], "messages": [{"role": m["role"], "content": m["content"]} for m in record["messages"]]}


@pytest.fixture(scope="module")
def both_paths(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Planted]:
    folder = tmp_path_factory.mktemp("pass-evidence")
    planted = write_export(folder / "timed.jsonl", CONVERSATIONS, seed=20261127)
    records = [_untimed(json.loads(line)) for line in (folder / "timed.jsonl").read_text().splitlines()]
    (folder / "export.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    table = pa.Table.from_pylist([{"conversation_id": r["id"], "messages": r["messages"]} for r in records])
    pq.write_table(table, folder / "export.parquet", row_group_size=40)
    logged = runner.invoke(app, ["audit", str(folder / "export.jsonl"), "--log-dir", str(folder / "logs")])
    assert logged.exit_code == 0, logged.output
    passed = runner.invoke(
        app, ["audit", str(folder / "export.parquet"), "--log-dir", str(folder / "pass"), "--workers", "1"]
    )
    assert passed.exit_code == 0, passed.output
    return folder, planted


def _document(target: Path, profile: str, *extra: str) -> dict[str, Any]:
    out = target.parent / f"{target.name}-{profile}.json"
    result = runner.invoke(
        app,
        ["report", str(target), "--profile", profile, "-o", str(out.with_suffix(".html")), "--json", str(out), *extra],
    )
    assert result.exit_code == 0, result.output
    return json.loads(out.read_text())


def _values(document: dict[str, Any]) -> dict[str, Any]:
    items = json.loads(json.dumps(document["items"]))
    for item in items:  # a detector pass keeps no turn numbers: the scope item's turns are the logs' only
        if item["kind"] == "judged_scope":
            item["value"]["detector"].pop("turns_flagged")
    return {
        "conversations": document["conversations"],
        "items": items,
        "detector_versions": document["method"]["detector_versions_in_logs"],
        "not_checked": document["not_checked"],
    }


@pytest.mark.slow
@pytest.mark.parametrize("profile", list(PROFILES))
def test_parquet_rows_give_the_profile_values_of_the_audit_log(both_paths: tuple[Path, Planted], profile: str) -> None:
    folder, planted = both_paths
    from_log = _values(_document(folder / "logs", profile))
    from_pass = _values(_document(folder / "pass", profile))
    assert from_pass == from_log
    checks = [i["value"] for i in from_pass["items"] if i["kind"] == "check"]
    # the comparison says something: conversations were checked and violations found
    assert sum(v["conversations_checked"] for v in checks) > 0
    assert from_pass["conversations"]["audited"] == CONVERSATIONS


@pytest.mark.slow
def test_population_estimate_is_the_same_on_both_paths(both_paths: tuple[Path, Planted]) -> None:
    folder, _ = both_paths
    from_log = _document(folder / "logs", "ca-sb243", "--population", "4000")
    from_pass = _document(folder / "pass", "ca-sb243", "--population", "4000")
    value = next(i["value"] for i in from_pass["items"] if i["key"] == "referral_notifications")
    assert value["observed"] > 0 and value["ci_low"] < value["estimate"] < value["ci_high"]
    assert _values(from_pass) == _values(from_log)


@pytest.mark.slow
def test_untimed_rows_are_left_out_of_a_period_and_said_so(both_paths: tuple[Path, Planted]) -> None:
    folder, _ = both_paths
    document = _document(folder / "pass", "ny-gbl47", "--period", "2026")
    assert document["conversations"]["undated"] == CONVERSATIONS
    assert document["conversations"]["in_period"] == 0
    assert any("no time places them" in n["why"] for n in document["not_checked"])


@pytest.mark.slow
def test_no_identifier_of_the_export_reaches_the_evidence(both_paths: tuple[Path, Planted]) -> None:
    folder, planted = both_paths
    text = json.dumps(_document(folder / "pass", "ca-sb243"))
    assert not [value for value in planted.identifiers if value in text]


@pytest.mark.slow
def test_labels_with_a_detector_pass_are_refused_in_one_line(both_paths: tuple[Path, Planted]) -> None:
    folder, _ = both_paths
    labels = folder / "labels.csv"
    labels.write_text("sample_id,turn,field,rater,score\nx,1,crisis_referral,clinician,1\n")
    result = runner.invoke(
        app,
        [
            "report",
            str(folder / "pass"),
            "--profile",
            "ca-sb243",
            "--labels",
            str(labels),
            "-o",
            str(folder / "l.html"),
        ],
    )
    assert result.exit_code == 2 and "--labels" in result.output and "Traceback" not in result.output
    assert not (folder / "l.html").exists()


def test_a_pass_without_the_statutory_columns_is_one_line(tmp_path: Path) -> None:
    from tests.audit.pass_rows import write_pass
    from trustmh.audit.schema import STATUTE_FIELDS

    folder = write_pass(tmp_path / "old", 50)
    for part in (folder / "conversations").glob("*.parquet"):
        table = pq.read_table(part)
        pq.write_table(table.drop_columns([name for name, _ in STATUTE_FIELDS]), part)
    html = tmp_path / "r.html"
    plain = runner.invoke(app, ["report", str(folder), "-o", str(html)])
    assert plain.exit_code == 0, plain.output  # the audit section needs no statutory column
    result = runner.invoke(app, ["report", str(folder), "--profile", "ca-sb243", "-o", str(tmp_path / "p.html")])
    assert result.exit_code == 2 and "without the statutory columns" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "p.html").exists()
