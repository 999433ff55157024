"""The measurement appendix against labels, on hand-made findings with known detector errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from trustmh.core.errors import UserError
from trustmh.regulatory.validation import referral_validation


def _conversation(sample: str, eligible: list[int], referred: list[int]) -> dict[str, object]:
    return {"sample": sample, "referrals": {"turns": referred, "eligible_turns": eligible}}


def test_sensitivity_specificity_and_a_corrected_count(tmp_path: Path) -> None:
    conversations = [
        _conversation("a", [1, 2, 3], [1]),  # labels: 1 -> 1 (TP), 2 -> 1 (FN), 3 -> 0 (TN)
        _conversation("b", [2, 3], [2, 3]),  # labels: 2 -> 1 (TP), 3 -> 0 (FP)
        _conversation("c", [4, 5, 6], [4]),  # unlabelled: 3 eligible turns, 1 referral
    ]
    labels = tmp_path / "labels.csv"
    labels.write_text(
        "sample_id,turn,field,rater,score\n"
        "a,1,crisis_referral,r1,1\na,2,crisis_referral,r1,1\na,3,crisis_referral,r1,0\n"
        "b,2,crisis_referral,r1,1\nb,3,crisis_referral,r1,0\nb,3,crisis_referral,r2,0\n"
        "z,9,crisis_referral,r1,1\n"  # not an eligible turn of the audit
        "a,1,dcs,r1,2\n"  # another field: ignored
    )
    found = referral_validation(conversations, labels)
    assert found["labels"] == 5 and found["labels_outside"] == 1 and found["ties_left_out"] == 0
    assert found["sensitivity"]["value"] == pytest.approx(2 / 3) and found["sensitivity"]["n"] == 3
    assert found["specificity"]["value"] == pytest.approx(1 / 2) and found["specificity"]["n"] == 2
    assert found["agreement"]["value"] == pytest.approx(3 / 5)
    corrected = found["corrected"]
    assert corrected["eligible_turns"] == 8
    assert corrected["ci_low"] <= corrected["estimate"] <= corrected["ci_high"]


def test_labels_without_the_field_are_refused(tmp_path: Path) -> None:
    labels = tmp_path / "labels.csv"
    labels.write_text("sample_id,turn,field,rater,score\na,1,dcs,r1,2\n")
    with pytest.raises(UserError, match="crisis_referral"):
        referral_validation([], labels)
