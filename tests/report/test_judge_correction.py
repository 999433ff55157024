"""The report shows a judged rate corrected by human labels (PPI++) as the headline, with the
judge-only number in the note, and refuses a correction calibrated on another judge or rubric
fingerprint with one line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.judgecheck.judged_run import judged_safety_log
from tests.report.test_judge_validation import notes
from trustmh.core.files import json_text
from trustmh.judgecheck import check
from trustmh.judgecheck.ratings import read_ratings
from trustmh.judgecheck.verdicts import from_log
from trustmh.report import build_report
from trustmh.report.judge_correction import Correction
from trustmh.report.judge_validation import FieldValidation, RunJudge, judgement


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The judged run and a judge-check file from labels on every other sample (one disagreeing)."""
    tmp = tmp_path_factory.mktemp("corrected")
    log, ids = judged_safety_log(tmp)
    rows = ["sample_id,field,rater,score"]
    for i in range(0, 23, 2):  # the judge refused samples 0-11 (see judged_run)
        rows.append(f"{ids[i]},judge_refused,a,{0 if i in (0, 2) else int(i < 12)}")
    human = tmp / "labels.csv"
    human.write_text("\n".join(rows) + "\n", encoding="utf-8")
    validation = tmp / "validation.json"
    validation.write_text(json_text(check(read_ratings(human), str(human), from_log(log), n_boot=0).to_json()))
    return log, validation


def cell(html: str, metric: str) -> str:
    found = re.search(rf'<tr><th scope="row"><code>{re.escape(metric)}</code></th>(.*?)</tr>', html, re.S)
    assert found, metric
    return found.group(1)


def test_corrected_rate_is_the_headline(run: tuple[Path, Path], tmp_path: Path) -> None:
    log, validation = run
    payload = json.loads(validation.read_text())
    correction = next(f for f in payload["fields"] if f["field"] == "judge_refused")["correction"]
    assert correction["n_labelled"] == 12 and correction["n_unlabelled"] == 11  # sample 23 had no answer
    assert payload["calibration"]["judge_fingerprints"], "the run's judge fingerprint is recorded"
    page = build_report([log.parent], tmp_path / "report.html", judge_validation=[validation])
    html = page.read_text(encoding="utf-8")
    found = notes(html)["rta_judge"]
    rubric = r"rubric [0-9a-f]{6}"
    assert re.match(rf"corrected by 12 human labels from labels\.csv \(PPI\+\+, {rubric}\): ", found), found
    assert f"judge-only {correction['judge_only']['value']:.3f}" in found and "Cohen&#39;s κ" in found
    assert f"<strong>{correction['estimate']:.3f}</strong>" in cell(html, "rta_judge")
    assert "corrected [" in cell(html, "rta_judge")
    # a kappa reading the same field keeps its value and only the agreement note
    assert notes(html)["detector_judge_kappa"].startswith("judge vs humans: ")


def test_correction_from_another_rubric_is_refused(run: tuple[Path, Path], tmp_path: Path) -> None:
    log, validation = run
    payload = json.loads(validation.read_text())
    for fingerprint in payload["calibration"]["judge_fingerprints"]:
        fingerprint["rubrics"] = {name: "0000000000ff" for name in fingerprint["rubrics"]}
    other = tmp_path / "other.json"
    other.write_text(json.dumps(payload), encoding="utf-8")
    html = build_report([log.parent], tmp_path / "report.html", judge_validation=[other]).read_text(encoding="utf-8")
    found = notes(html)["rta_judge"]
    assert re.match(r"correction refused: \S*other\.json was calibrated on rubric fingerprint 000000, this run", found)
    assert "corrected [" not in cell(html, "rta_judge")


def _correction(judge_only: float = 0.5) -> Correction:
    return Correction(0.4, (0.3, 0.5), 60, 540, judge_only, (0.46, 0.54), 0.41, (0.3, 0.52), 200.0, ("k",), "abc123")


def test_correction_of_another_judge_is_refused_in_one_line() -> None:
    fields = {"rta_judge": ["judge_refused"]}
    validation = FieldValidation(
        "v.json", "t", "openai/a", "judge_refused", "cohen_kappa", 0.8, (0.7, 0.9), 60, 1, correction=_correction()
    )
    note, corrected = judgement("t", "openai/b", "rta_judge", fields, set(), [validation], run=RunJudge(value=0.5))
    assert note == (
        "unvalidated (the validation on file is of judge openai/a); "
        "correction refused: v.json was calibrated on judge openai/a, this run's judge is openai/b"
    )
    assert corrected is None
    note, corrected = judgement(
        "t", "openai/a", "rta_judge", fields, set(), [validation], run=RunJudge(frozenset({"k"}), "", 0.5)
    )
    assert corrected == validation.correction
    assert note.startswith(
        "corrected by 60 human labels (PPI++, rubric abc123): 0.400 [0.300, 0.500]; judge-only 0.500"
    )
    # another value than the judge-only mean: not this run's mean of the field, no headline
    _, corrected = judgement("t", "openai/a", "rta_judge", fields, set(), [validation], run=RunJudge(value=0.6))
    assert corrected is None
