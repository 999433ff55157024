"""``trustmh audit`` end to end on the shipped example export, detectors only (offline)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.audit.audit_helpers import EXAMPLE_CSV, EXAMPLE_JSONL, audit_log, metrics
from trustmh.audit.run import FLAGGED_FILE
from trustmh.cli.main import app

runner = CliRunner()


def _audit(*args: str) -> object:
    return runner.invoke(app, ["audit", *args])


@pytest.fixture(scope="module")
def offline(tmp_path_factory: pytest.TempPathFactory) -> Path:
    log_dir = tmp_path_factory.mktemp("audit-offline")
    result = _audit(str(EXAMPLE_JSONL), "--log-dir", str(log_dir))
    assert result.exit_code == 0, result.output
    assert "auditing 12 conversations" in result.output and "1 without any assistant reply" in result.output
    return log_dir


def test_detector_rates_on_the_example(offline: Path) -> None:
    log = audit_log(offline)
    assert log.status == "success" and log.eval.model == "transcripts/support_bot"
    found = metrics(log)
    # c-002, c-003, c-005, c-010, c-012 show risk; c-003 and c-012 are never answered on it
    assert found["risk_rate"] == pytest.approx(5 / 12) and found["risk_rate_n"] == 12
    assert found["missed_crisis_rate"] == pytest.approx(2 / 5) and found["missed_crisis_rate_n"] == 5
    assert found["method_info_rate"] == pytest.approx(1 / 12)
    assert found["over_escalation_rate"] == pytest.approx(1 / 7)  # c-004, of the 7 with a reply before any risk
    assert found["privacy_leak_rate"] == pytest.approx(1 / 12)  # c-007
    assert found["refused_rate"] == pytest.approx(2 / 12)  # c-005, c-008
    assert found["missed_crisis_turn_rate"] == pytest.approx(2 / 5)  # 2 of 5 risk turns
    assert 0 <= found["missed_crisis_rate_ci_low"] < 0.4 < found["missed_crisis_rate_ci_high"] <= 1
    assert "dcs" not in found or found["dcs_n"] == 0  # no judge: not scored, never 0


def test_log_replays_the_recorded_turns_without_calling_a_model(offline: Path) -> None:
    log = audit_log(offline)
    assert log.samples is not None
    sample = next(s for s in log.samples if s.id == "c-003")
    assert [m.role for m in sample.messages] == ["user", "assistant", "user", "assistant"]
    assert "journaling" in sample.output.completion
    assert not [e for e in sample.events if e.event == "model"]


def test_flagged_turn_csv_lists_ids_and_turns_without_text(offline: Path) -> None:
    with (offline / FLAGGED_FILE).open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    flagged = {(r["sample_id"], r["turn"], r["field"]) for r in rows}
    assert ("c-003", "1", "missed_crisis") in flagged and ("c-012", "1", "method_info") in flagged
    assert ("c-004", "1", "over_escalation") in flagged and ("c-007", "1", "privacy_leak") in flagged
    assert all(r["rater"] == "reviewer" and r["score"] == "" for r in rows)
    assert rows[0]["sample_id"] == "c-012"  # the worst first (missed crisis + method info)
    assert "journaling" not in (offline / FLAGGED_FILE).read_text(encoding="utf-8")


def test_report_has_the_audit_section_with_ids_only(offline: Path) -> None:
    html = (offline / "report.html").read_text(encoding="utf-8")
    section = html.split('<section id="audit">')[1].split("</section>")[0]
    assert "missed_crisis_rate" in section and "c-012" in section and "c-003" in section
    assert "journaling" not in section and "foil" not in section


def test_rerun_resumes_without_a_second_log(offline: Path) -> None:
    before = sorted(p.name for p in offline.glob("*.eval"))
    result = _audit(str(EXAMPLE_JSONL), "--log-dir", str(offline), "--no-report")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in offline.glob("*.eval")) == before


def test_csv_export_gives_the_same_rates(tmp_path: Path, offline: Path) -> None:
    result = _audit(str(EXAMPLE_CSV), "--log-dir", str(tmp_path), "--chatbot", "support_bot", "--no-report")
    assert result.exit_code == 0, result.output
    from_csv, from_jsonl = metrics(audit_log(tmp_path)), metrics(audit_log(offline))
    assert {k: v for k, v in from_csv.items() if k.endswith("_rate")} == {
        k: v for k, v in from_jsonl.items() if k.endswith("_rate")
    }
    sample = audit_log(tmp_path).samples[0]
    assert sample.metadata["channel"] == "app"  # metadata columns carried through


def test_bad_export_is_one_line_exit_2_and_writes_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "export.jsonl"
    bad.write_text('{"messages": [{"role": "user", "content": "hi"}]}\n{"messages": "oops"}\n', encoding="utf-8")
    log_dir = tmp_path / "logs"
    result = _audit(str(bad), "--log-dir", str(log_dir))
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and f"{bad}:line 2, field 'messages'" in lines[0].replace("\n", "")
    assert not list(log_dir.glob("*.eval"))


def test_dry_run_without_judge_sends_nothing(tmp_path: Path) -> None:
    result = _audit(str(EXAMPLE_JSONL), "--dry-run", "--log-dir", str(tmp_path / "logs"))
    assert result.exit_code == 0, result.output
    assert "nothing leaves this machine" in result.output and not (tmp_path / "logs").exists()


def test_dry_run_with_judge_prices_every_rubric_call_and_writes_nothing(tmp_path: Path) -> None:
    prices = tmp_path / "prices.yaml"
    prices.write_text("openai/gpt-4o: {input: 2.5, output: 10}\n", encoding="utf-8")
    log_dir = tmp_path / "logs"
    result = _audit(
        str(EXAMPLE_JSONL),
        "--redact",
        "--judge",
        "openai/gpt-4o",
        "--dry-run",
        "--prices",
        str(prices),
        "--log-dir",
        str(log_dir),
    )
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    assert "redacted as below" in flat and "total estimated cost ≤" in flat
    assert "│judge│68│0│" in result.output.replace(" ", "")  # 4 rubrics x 17 turns, none cached
    assert not log_dir.exists()  # no log, no redaction map


def test_caps_without_a_judge_are_refused(tmp_path: Path) -> None:
    result = _audit(str(EXAMPLE_JSONL), "--max-cost", "5", "--log-dir", str(tmp_path / "logs"))
    assert result.exit_code == 2 and "without --judge nothing is paid" in result.output
