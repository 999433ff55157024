"""judge-check's PPI++ correction per field: the labelled samples are the human-rated ones, the
unlabelled the rest of the run; unparsed verdicts are counted, never scored; nominal fields and
per-turn items are skipped with the reason."""

from __future__ import annotations

import numpy as np
import pytest

from trustmh.judgecheck import JudgeCheck, check
from trustmh.judgecheck.analysis import FieldAgreement
from trustmh.judgecheck.ratings import Rating, Value
from trustmh.judgecheck.verdicts import JudgeVerdicts
from trustmh.stats.ppi import ppi_mean


def ratings(field: str, by_rater: dict[str, list[Value]]) -> list[Rating]:
    """Sample ids s0, s1, ... in list order (as tests/judgecheck/test_analysis.py)."""
    return [
        Rating(f"s{i}", field, rater, value, f"human.csv:line {i + 2}")
        for rater, values in by_rater.items()
        for i, value in enumerate(values)
    ]


def judge(field: str, values: list[Value | None]) -> JudgeVerdicts:
    return JudgeVerdicts("judge-x", "run.eval", {(f"s{i}", field): v for i, v in enumerate(values)}, "task", "m")


def one(result: JudgeCheck) -> FieldAgreement:
    assert len(result.fields) == 1
    return result.fields[0]


# A judge over 12 samples, humans rated the first 6 (one rater) and the judge is 1 point generous.
JUDGED = [3.0, 4.0, 5.0, 3.0, 4.0, 2.0, 4.0, 5.0, 3.0, 4.0, 5.0, 3.0]
HUMAN = [2.0, 3.0, 4.0, 2.0, 3.0, 1.0]


def test_scale_field_is_corrected_by_the_labels() -> None:
    row = one(check(ratings("quality", {"ann": HUMAN}), "human.csv", judge("quality", JUDGED), n_boot=0))
    c = row.correction
    expected = ppi_mean(HUMAN, JUDGED[:6], JUDGED[6:])
    assert c["method"] == "ppi++" and (c["n_labelled"], c["n_unlabelled"]) == (6, 6)
    assert c["estimate"] == pytest.approx(expected.estimate)
    assert c["ci"] == pytest.approx(list(expected.ci))
    assert c["judge_only"]["value"] == pytest.approx(np.mean(JUDGED)) and c["judge_only"]["n"] == 12
    assert c["human_only"]["value"] == pytest.approx(np.mean(HUMAN))
    # a judge exactly 1 point generous: lambda 1 would remove the offset exactly
    assert c["estimate"] < c["judge_only"]["value"]


def test_several_raters_label_an_item_with_their_mean() -> None:
    second = [3.0, 3.0, 4.0, 3.0, 3.0, 2.0]
    row = one(check(ratings("q", {"a": HUMAN, "b": second}), "h", judge("q", JUDGED), n_boot=0))
    labels = (np.array(HUMAN) + np.array(second)) / 2
    assert row.correction["estimate"] == pytest.approx(ppi_mean(labels, JUDGED[:6], JUDGED[6:]).estimate)


def test_unparsed_verdicts_are_counted_on_both_sides() -> None:
    said: list = [*JUDGED]
    said[1] = None  # labelled, unparsed: the label has no judge score beside it
    said[8] = None  # unlabelled, unparsed
    row = one(check(ratings("q", {"ann": HUMAN}), "h", judge("q", said), n_boot=0))
    c = row.correction
    assert (c["n_labelled"], c["labelled_unparsed"], c["n_unlabelled"], c["unlabelled_unparsed"]) == (5, 1, 5, 1)
    kept = [0, 2, 3, 4, 5]
    expected = ppi_mean([HUMAN[i] for i in kept], [JUDGED[i] for i in kept], JUDGED[6:8] + JUDGED[9:])
    assert c["estimate"] == pytest.approx(expected.estimate)


def test_binary_rate_is_corrected() -> None:
    judged = [1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0]
    human = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
    row = one(check(ratings("judge_refused", {"ann": human}), "h", judge("judge_refused", judged), n_boot=0))
    assert row.kind == "binary"
    assert row.correction["estimate"] == pytest.approx(ppi_mean(human, judged[:6], judged[6:]).estimate)


def test_nominal_and_too_few_labels_are_skipped_with_the_reason() -> None:
    labels = ["refused", "complied", "refused"]
    row = one(check(ratings("verdict", {"ann": labels}), "h", judge("verdict", [*labels, "complied"]), n_boot=0))
    assert row.correction == {"method": "ppi++", "skipped": "a nominal field has no mean to correct"}
    row = one(check(ratings("q", {"ann": [3.0]}), "h", judge("q", [3.0, 4.0]), n_boot=0))
    assert "at least 2" in row.correction["skipped"]


def test_per_turn_items_are_skipped() -> None:
    human = [Rating("c1", "dcs", "ann", float(t), f"h:line {t}", turn=t) for t in (1, 2, 3)]
    verdicts = JudgeVerdicts(
        "judge-x",
        "run.eval",
        {("c1", "other"): 1.0},
        turn_values={("c1", t, "dcs"): float(t) for t in (1, 2, 3)},
        turn_counts={"c1": 3},
    )
    row = one(check(human, "h", verdicts, n_boot=0))
    assert row.unit == "turn" and "not independent" in row.correction["skipped"]


def test_the_calibration_is_recorded(tmp_path) -> None:
    human = tmp_path / "labels.csv"
    human.write_text("sample_id,field,rater,score\n", encoding="utf-8")
    verdicts = judge("q", JUDGED)
    verdicts.fingerprints = [
        {"judges": ["openai/j"], "rubrics": {"q": "abc123"}, "temperature": 0, "prompt_version": 1}
    ]
    result = check(ratings("q", {"ann": HUMAN}), str(human), verdicts, n_boot=0)
    calibration = result.to_json()["calibration"]
    assert calibration["labels"] == str(human) and len(calibration["labels_sha256"]) == 64
    assert calibration["judge"] == "judge-x" and calibration["run"] == "run.eval"
    assert calibration["judge_fingerprints"][0]["rubrics"] == {"q": "abc123"}


def test_a_rate_with_few_labelled_positives_warns_that_its_interval_is_unreliable() -> None:
    judged = [1.0 if i % 5 == 0 else 0.0 for i in range(60)]
    human = [1.0 if i in (0, 5, 7) else 0.0 for i in range(40)]  # 3 positives among 40 labels
    row = one(check(ratings("crisis_missed", {"ann": human}), "h", judge("crisis_missed", judged), n_boot=0))
    assert row.correction["interval"] == "normal"
    assert (
        "too few labelled items with the rarer answer for a reliable interval: 3 in a stratum"
        in (row.correction["warning"])
    )
    plenty = [float(i % 2) for i in range(40)]
    row = one(check(ratings("crisis_missed", {"ann": plenty}), "h", judge("crisis_missed", judged), n_boot=0))
    assert "warning" not in row.correction


def test_strata_of_the_judges_verdict_give_the_score_interval_and_no_warning() -> None:
    # 100 judged samples, 20 flagged; labels: 10 of the flagged (weight 2), 30 of the others (weight 8/3)
    judged = [1.0] * 20 + [0.0] * 80
    labelled = list(range(10)) + list(range(20, 50))
    human = {i: 1.0 if i < 7 or i in (20, 21) else 0.0 for i in labelled}
    rows = [
        Rating(f"s{i}", "crisis_missed", "ann", human[i], f"h:{i}", None, 2.0 if i < 20 else 80 / 30) for i in labelled
    ]
    row = one(check(rows, "h", judge("crisis_missed", judged), n_boot=0))
    assert row.correction["weighted"] and row.correction["interval"] == "score"
    assert "warning" not in row.correction  # 2 positives in a stratum, but the score interval allows for it
    low, high = row.correction["ci"]
    assert low < row.correction["estimate"] < high
