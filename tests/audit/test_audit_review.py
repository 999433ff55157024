"""The offline audit's review step works without a judge: reviewed detector flags give each detector's precision."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.audit.audit_helpers import EXAMPLE_JSONL
from trustmh.audit.run import FLAGGED_FILE
from trustmh.cli.main import app
from trustmh.stats.intervals import wilson_interval

runner = CliRunner()


@pytest.fixture(scope="module")
def audited(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    log_dir = tmp_path_factory.mktemp("audit-review")
    result = runner.invoke(app, ["audit", str(EXAMPLE_JSONL), "--log-dir", str(log_dir)])
    assert result.exit_code == 0, result.output
    (log,) = log_dir.glob("*.eval")
    return log_dir, log, result.output


def _labelled(source: Path, destination: Path, labels: dict[tuple[str, str], str]) -> Path:
    """The flagged-turn CSV as a reviewer returns it: the rows they scored, the others deleted."""
    with source.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    kept = [r | {"score": labels[(r["sample_id"], r["field"])]} for r in rows if (r["sample_id"], r["field"]) in labels]
    with destination.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(kept)
    return destination


def test_the_audit_says_how_to_review_without_a_judge(audited: tuple[Path, Path, str]) -> None:
    log_dir, log, output = audited
    text = " ".join(output.split())
    assert f"trustmh judge-check --log {log} --human {log_dir / FLAGGED_FILE}" in text
    assert "(each detector's precision)" in text and "fill in score, then" not in text


def test_reviewed_flags_give_each_detectors_precision(audited: tuple[Path, Path, str], tmp_path: Path) -> None:
    log_dir, log, _ = audited
    # c-003 and c-012 are the two missed crises of the example; the reviewer confirms one
    labels = {("c-003", "missed_crisis"): "1", ("c-012", "missed_crisis"): "0", ("c-012", "method_info"): "1"}
    human = _labelled(log_dir / FLAGGED_FILE, tmp_path / "reviewed.csv", labels)
    result = runner.invoke(app, ["judge-check", "--log", str(log), "--human", str(human), "--json", "-"])
    assert result.exit_code == 0, result.output
    found = {d["detector"]: d for d in json.loads(result.stdout)["detector_precision"]}
    assert set(found) == {"missed_crisis", "method_info"}
    assert (found["missed_crisis"]["precision"], found["missed_crisis"]["n"]) == (0.5, 2)
    assert found["missed_crisis"]["ci"] == pytest.approx(list(wilson_interval(1, 2)))
    assert (found["method_info"]["precision"], found["method_info"]["n"]) == (1.0, 1)
    table = runner.invoke(app, ["judge-check", "--log", str(log), "--human", str(human)])
    assert table.exit_code == 0 and "detector precision" in table.output and "missed_crisis" in table.output


def test_a_label_of_a_turn_no_detector_flagged_is_one_line_exit_2(
    audited: tuple[Path, Path, str], tmp_path: Path
) -> None:
    log_dir, log, _ = audited
    human = tmp_path / "wrong.csv"
    human.write_text("sample_id,turn,field,rater,score\nc-001,1,missed_crisis,reviewer,1\n", encoding="utf-8")
    result = runner.invoke(app, ["judge-check", "--log", str(log), "--human", str(human)])
    assert result.exit_code == 2
    assert "line 2: missed_crisis of sample 'c-001' turn 1 is not a flag of this audit" in " ".join(
        result.output.split()
    )


def test_the_audit_headline_is_the_bots_failures_with_disclosure_beside(audited: tuple[Path, Path, str]) -> None:
    _, _, output = audited
    text = " ".join(output.split())
    # 2 of the 5 conversations with risk were never answered on it; 1 of 12 gave method information
    assert (
        "bot failures (transcripts/support_bot): missed crisis 0.400 [" in text
        and "(n = 5), method information 0.083 [" in text
        and "beside it, users disclosing risk 0.417 [" in text
    ), text
    table_line = next(line for line in output.splitlines() if "audit" in line and "/" in line and "[" in line)
    assert "missed_crisis_rate" in table_line and "risk_rate" not in table_line
