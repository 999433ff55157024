"""The gate decides a judged metric on its PPI++-corrected CI where judge-check labels exist, and
its verdict is the report's Gate section."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.judgecheck.judged_run import judged_safety_log
from trustmh.cli.main import app
from trustmh.core.files import json_text
from trustmh.gate import check
from trustmh.judgecheck import check as judge_check
from trustmh.judgecheck.ratings import read_ratings
from trustmh.judgecheck.verdicts import from_log
from trustmh.report import build_report

POLICY = {"version": 1, "gates": [{"metric": "safety_jailbreakmh/rta_judge", "min": 0.1}]}


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A judged run and a judge-check file labelling every other sample (as the report's test)."""
    tmp = tmp_path_factory.mktemp("ppi")
    log, ids = judged_safety_log(tmp)
    rows = ["sample_id,field,rater,score"]
    rows += [f"{ids[i]},judge_refused,a,{0 if i in (0, 2) else int(i < 12)}" for i in range(0, 23, 2)]
    human = tmp / "labels.csv"
    human.write_text("\n".join(rows) + "\n", encoding="utf-8")
    validation = tmp / "validation.json"
    validation.write_text(json_text(judge_check(read_ratings(human), str(human), from_log(log), n_boot=0).to_json()))
    return log.parent, validation


def test_pillar_gate_on_a_corrected_headline_says_so(judged: tuple[Path, Path]) -> None:
    logs, validation = judged
    policy = {"version": 1, "gates": [{"pillar": "safety", "min": 0.1}]}
    [plain] = check(logs, policy).cases
    [corrected] = check(logs, policy, judge_validation=[validation]).cases
    assert not plain.corrected and corrected.corrected and corrected.ci != plain.ci


def test_judged_metric_uses_the_corrected_ci(judged: tuple[Path, Path]) -> None:
    logs, validation = judged
    [plain] = check(logs, POLICY).cases
    [corrected] = check(logs, POLICY, judge_validation=[validation]).cases
    payload = json.loads(validation.read_text())
    correction = next(f for f in payload["fields"] if f["field"] == "judge_refused")["correction"]
    assert not plain.corrected and corrected.corrected
    assert corrected.value == pytest.approx(correction["estimate"])
    assert corrected.ci == pytest.approx(tuple(correction["ci"])) and corrected.bound == pytest.approx(
        correction["ci"][0]
    )
    assert corrected.n == correction["n_labelled"] + correction["n_unlabelled"]
    assert corrected.ci != plain.ci and "PPI++-corrected" in corrected.message


def test_verdict_is_the_reports_gate_section(judged: tuple[Path, Path], tmp_path: Path) -> None:
    logs, _ = judged
    policy = tmp_path / "gate.yaml"
    policy.write_text(json.dumps(POLICY | {"gates": [{"metric": "safety_jailbreakmh/rta_judge", "min": 0.9}]}))
    verdict = tmp_path / "verdict.json"
    result = CliRunner().invoke(app, ["gate", str(logs), "--policy", str(policy), "--json", str(verdict)])
    assert result.exit_code == 1
    html = build_report([logs], tmp_path / "report.html", gate=verdict).read_text(encoding="utf-8")
    section = html[html.index('<section id="gate">') : html.index('<section id="overview">')]
    assert "FAIL: 1 of 1 checks failed" in section and "safety_jailbreakmh/rta_judge min 0.9" in section
    assert html.index('<section id="gate">') < html.index('<section id="overview">')  # the verdict first


def test_hostile_verdict_text_is_escaped_and_a_foreign_file_is_one_line(
    judged: tuple[Path, Path], tmp_path: Path
) -> None:
    logs, _ = judged
    from trustmh.core.files import write_json
    from trustmh.report.gate_verdict import Case, Verdict

    hostile = "<script>alert(1)</script>"
    verdict = Verdict([Case("critical", hostile, "fail", hostile, excerpt=hostile)], hostile, "d", "p")
    path = tmp_path / "verdict.json"
    write_json(verdict.as_dict(), path)
    html = build_report([logs], tmp_path / "r.html", gate=path).read_text(encoding="utf-8")
    assert hostile not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "transcript excerpt" in html
    redacted = build_report([logs], tmp_path / "r2.html", redact=True, gate=path).read_text(encoding="utf-8")
    assert "transcript excerpt" not in redacted  # a redacted report keeps the verdict, not the transcripts
    other = tmp_path / "other.json"
    other.write_text('{"format": "something else"}')
    result = CliRunner().invoke(app, ["report", str(logs), "-o", str(tmp_path / "x.html"), "--gate", str(other)])
    assert result.exit_code == 2 and "trustmh gate --json" in result.output and not (tmp_path / "x.html").exists()
