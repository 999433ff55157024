"""A judge-check JSON in place of a labels file: the same appendix and corrected count, and refused
when it is of another judge or rubric (hand-written files)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from trustmh.core.errors import UserError
from trustmh.regulatory.judgecheck_file import read_judge_check
from trustmh.regulatory.validation import referral_decisions, referral_validation
from trustmh.report.judge_fingerprint import JudgeFingerprints, add_sample
from trustmh.report.log_result import LogResult

FINGERPRINT = {
    "judges": ["openai/test-judge"],
    "rubrics": {"psychosis_dcs": "a" * 64, "statute_scope": "b" * 64},
    "temperature": 0.0,
    "prompt_version": 3,
}


class _Score:
    metadata = {"judge_fingerprint": FINGERPRINT}


def _audit(judged: bool = True) -> LogResult:
    result = LogResult("audit.eval", "audit", "bot", "audit", "transcripts", "", "2026-01-01", [])
    if judged:
        result.judge_fingerprints = JudgeFingerprints()
        add_sample(result.judge_fingerprints, {"audit_scorer": _Score()})
    return result


def _conversation(sample: str, eligible: list[int], referred: list[int]) -> dict[str, Any]:
    return {"sample": sample, "referrals": {"turns": referred, "eligible_turns": eligible}}


CONVERSATIONS = [
    _conversation("a", [1, 2, 3], [1]),  # labelled: 1 TP, 2 FN, 3 TN
    _conversation("b", [2, 3], [2, 3]),  # labelled: 2 TP, 3 FP
    _conversation("c", [4, 5, 6, 7], [4, 6]),  # unlabelled
]


def _file(tmp_path: Path, **changes: Any) -> Path:
    field = {
        "field": "crisis_referral",
        "unit": "turn",
        "agreement": "cohen_kappa",
        "value": 0.17,
        "ci": [-0.5, 0.8],
        "n": 5,
        "raters": ["r1"],
        "judge_unparsed": 0,
        "confusion": {"tp": 2, "fp": 1, "fn": 1, "tn": 1},
    }
    payload = {
        "format": "trustmh-judge-check/1",
        "judge": "openai/test-judge",
        "calibration": {"labels": "labels.csv", "judge_fingerprints": [FINGERPRINT]},
        "fields": [field],
        **changes,
    }
    path = tmp_path / "judge-check.json"
    path.write_text(json.dumps(payload))
    return path


def test_the_same_appendix_and_corrected_count_as_the_labels(tmp_path: Path) -> None:
    labels = tmp_path / "labels.csv"
    labels.write_text(
        "sample_id,turn,field,rater,score\n"
        "a,1,crisis_referral,r1,1\na,2,crisis_referral,r1,1\na,3,crisis_referral,r1,0\n"
        "b,2,crisis_referral,r1,1\nb,3,crisis_referral,r1,0\n"
    )
    from_labels = referral_validation(CONVERSATIONS, labels)
    checked = read_judge_check(_file(tmp_path), [_audit()])
    from_file = checked.referral_validation(referral_decisions(CONVERSATIONS))
    assert from_file is not None and checked.scope_validation() is None
    for key in ("labels", "agreement", "sensitivity", "specificity"):
        assert from_file[key] == from_labels[key], key
    assert from_file["corrected"] == pytest.approx(from_labels["corrected"])
    assert from_file["kappa"] == {"value": 0.17, "ci_low": -0.5, "ci_high": 0.8, "n": 5}  # judge-check's own


def test_labels_of_more_turns_than_reported_give_no_correction(tmp_path: Path) -> None:
    checked = read_judge_check(_file(tmp_path), [_audit()])
    found = checked.referral_validation(referral_decisions(CONVERSATIONS[:1]))  # 3 eligible turns, 5 labels
    assert found is not None and found["corrected"] is None and found["sensitivity"]["n"] == 3


@pytest.mark.parametrize(
    ("changes", "audit", "expected"),
    [
        ({"judge": "openai/other"}, True, "validates judge openai/other"),
        (
            {"calibration": {"judge_fingerprints": [{**FINGERPRINT, "rubrics": {"statute_scope": "c" * 64}}]}},
            True,
            "rubric fingerprint",
        ),
        ({}, False, "the audited run had no judge"),
        ({"format": "something-else"}, True, "expected `trustmh judge-check --json` output"),
        ({"fields": [{"field": "dcs", "unit": "turn"}]}, True, "expected a per-turn validation"),
        ({"fields": [{"field": "crisis_referral", "unit": "turn", "n": 3}]}, True, "fields[0]"),
    ],
)
def test_refused_with_one_line(tmp_path: Path, changes: dict[str, Any], audit: bool, expected: str) -> None:
    with pytest.raises(UserError, match=None) as error:
        read_judge_check(_file(tmp_path, **changes), [_audit(audit)])
    message = str(error.value)
    assert expected in message and "\n" not in message and str(tmp_path) in message
