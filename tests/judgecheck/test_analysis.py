"""judge-check's statistics on small tables whose values are computed by hand or by an
independent library (scikit-learn, pingouin, krippendorff)."""

from __future__ import annotations

import krippendorff
import numpy as np
import pandas as pd
import pingouin
import pytest
from sklearn.metrics import cohen_kappa_score

from trustmh.core.errors import UserError
from trustmh.judgecheck import check
from trustmh.judgecheck.ratings import Rating, Value
from trustmh.judgecheck.verdicts import JudgeVerdicts

HUMAN = [1.0, 2.0, 3.0, 4.0, 5.0, 3.0]
JUDGE = [2.0, 2.0, 4.0, 4.0, 5.0, 2.0]


def ratings(field: str, by_rater: dict[str, list[Value | None]]) -> list[Rating]:
    return [
        Rating(f"s{i}", field, rater, value, f"human.csv:line {i + 2}")
        for rater, values in by_rater.items()
        for i, value in enumerate(values)
        if value is not None
    ]


def judge(field: str, values: list[Value | None], extra: dict[str, list[str]] | None = None) -> JudgeVerdicts:
    return JudgeVerdicts(
        "judge-x", "run.eval", {(f"s{i}", field): v for i, v in enumerate(values)}, "task", "m", extra or {}
    )


def one(result) -> object:
    assert len(result.fields) == 1
    return result.fields[0]


def icc_a1_by_hand(x: list[float], y: list[float]) -> float:
    """McGraw & Wong ICC(A,1) from the two-way ANOVA of the n x 2 table, written out."""
    table = np.column_stack([x, y])
    n, k = table.shape
    grand = table.mean()
    ms_r = k * ((table.mean(axis=1) - grand) ** 2).sum() / (n - 1)
    ms_c = n * ((table.mean(axis=0) - grand) ** 2).sum() / (k - 1)
    sse = ((table - table.mean(axis=1, keepdims=True) - table.mean(axis=0) + grand) ** 2).sum()
    ms_e = sse / ((n - 1) * (k - 1))
    return (ms_r - ms_e) / (ms_r + (k - 1) * ms_e + k / n * (ms_c - ms_e))


def test_scale_one_rater_icc_bias_alpha() -> None:
    row = one(check(ratings("quality", {"ann": HUMAN}), "human.csv", judge("quality", JUDGE), n_boot=200))
    assert row.kind == "scale" and row.agreement == "icc_a1" and row.n == 6
    assert row.value == pytest.approx(icc_a1_by_hand(HUMAN, JUDGE))
    frame = pd.DataFrame({"item": list(range(6)) * 2, "rater": ["h"] * 6 + ["j"] * 6, "score": HUMAN + JUDGE})
    table = pingouin.intraclass_corr(frame, "item", "rater", "score").set_index("Type")
    # pingouin < 0.6 names it ICC2 (Shrout & Fleiss), newer versions ICC(A,1).
    assert row.value == pytest.approx(table.loc["ICC(A,1)" if "ICC(A,1)" in table.index else "ICC2", "ICC"])
    assert row.bias == pytest.approx(np.mean(JUDGE) - np.mean(HUMAN))
    assert row.alpha == pytest.approx(
        krippendorff.alpha(reliability_data=[JUDGE, HUMAN], level_of_measurement="interval")
    )
    assert row.ci[0] <= row.value <= row.ci[1]
    assert row.bias_ci[0] <= row.bias <= row.bias_ci[1]


def test_scale_several_raters_uses_the_human_mean() -> None:
    second = [2.0, 2.0, 3.0, 5.0, 4.0, 3.0]
    row = one(check(ratings("q", {"a": HUMAN, "b": second}), "h", judge("q", JUDGE), n_boot=0))
    mean = list((np.array(HUMAN) + np.array(second)) / 2)
    assert row.value == pytest.approx(icc_a1_by_hand(mean, JUDGE))
    assert row.alpha == pytest.approx(
        krippendorff.alpha(reliability_data=[JUDGE, HUMAN, second], level_of_measurement="interval")
    )
    assert row.human_alpha == pytest.approx(
        krippendorff.alpha(reliability_data=[HUMAN, second], level_of_measurement="interval")
    )
    assert np.isnan(row.ci[0])  # no bootstrap asked for: no interval, never a made-up one


def test_labels_one_rater_cohen_kappa() -> None:
    human = ["safe", "unsafe", "safe", "unclear", "unsafe", "safe", "safe", "unsafe"]
    said = ["safe", "unsafe", "unsafe", "unclear", "unsafe", "safe", "unclear", "unsafe"]
    row = one(check(ratings("risk", {"ann": human}), "h", judge("risk", said), n_boot=200))
    assert row.kind == "nominal" and row.agreement == "cohen_kappa"
    assert row.value == pytest.approx(cohen_kappa_score(human, said))
    assert row.majority_agreement == pytest.approx(6 / 8)
    codes = {label: i for i, label in enumerate(sorted(set(human)))}
    assert row.alpha == pytest.approx(
        krippendorff.alpha(
            reliability_data=[[codes[v] for v in said], [codes[v] for v in human]], level_of_measurement="nominal"
        )
    )
    assert np.isnan(row.bias)  # no bias for unordered labels


def test_labels_several_raters_fleiss_and_human_ceiling() -> None:
    a = ["y", "y", "n", "n", "y", "n"]
    b = ["y", "n", "n", "n", "y", "n"]
    said = ["y", "y", "y", "n", "y", "n"]
    row = one(check(ratings("ok", {"a": a, "b": b}), "h", judge("ok", said), n_boot=100))
    assert row.agreement == "fleiss_kappa"
    # Items (judge, a, b) as counts of (n, y): [0,3], [1,2], [2,1], [3,0], [0,3], [3,0]
    # P_i = 1, 1/3, 1/3, 1, 1, 1 -> P-bar = 14/18; p = (9/18, 9/18) -> P_e = 1/2
    expected = (14 / 18 - 1 / 2) / (1 - 1 / 2)
    assert row.value == pytest.approx(expected)
    # humans alone: items (a, b) agree on 5 of 6 -> Fleiss with m = 2
    assert row.human_kappa == pytest.approx(
        (5 / 6 - (7 / 12) ** 2 - (5 / 12) ** 2) / (1 - (7 / 12) ** 2 - (5 / 12) ** 2)
    )


def test_binary_by_labels_precision_recall_and_rate_bias() -> None:
    human = ["refused", "partial", "complied", "refused", "complied", "partial"]
    said = ["refused", "complied", "complied", "refused", "refused", "refused"]
    row = one(
        check(
            ratings("refusal", {"ann": human}), "h", judge("refusal", said), binary={"refusal": {"refused", "partial"}}
        )
    )
    assert row.kind == "binary"
    assert row.confusion == {"tp": 3, "fp": 1, "fn": 1, "tn": 1}
    assert row.precision == pytest.approx(3 / 4) and row.recall == pytest.approx(3 / 4)
    assert row.bias == pytest.approx(4 / 6 - 4 / 6)
    assert row.value == pytest.approx(cohen_kappa_score([1, 1, 0, 1, 0, 1], [1, 0, 0, 1, 1, 1]))


def test_unparsed_and_missing_verdicts_are_counted_not_scored() -> None:
    verdicts = judge("q", [2.0, None, 4.0, 4.0])  # s1 unparsed; s4 and s5 not in the log
    row = one(check(ratings("q", {"ann": HUMAN}), "h", verdicts, n_boot=0))
    assert (row.n, row.judge_unparsed, row.not_judged) == (3, 1, 2)


def test_metrics_fed_by_the_field_are_named() -> None:
    verdicts = judge("judge_refused", [1.0, 0.0, 1.0], {"judge_refused": ["rta_judge", "detector_judge_kappa"]})
    row = one(check(ratings("judge_refused", {"ann": [1.0, 0.0, 0.0]}), "h", verdicts, n_boot=0))
    assert row.kind == "binary" and row.metrics == ["rta_judge", "detector_judge_kappa"]


def test_field_or_samples_unknown_to_the_judge_is_a_user_error() -> None:
    with pytest.raises(UserError, match=r"human.csv:line 2: field 'other' is not among the judge's fields"):
        check(ratings("other", {"ann": HUMAN}), "h", judge("q", JUDGE))
    stranger = [Rating("zz", "q", "ann", 1.0, "human.csv:line 2")]
    with pytest.raises(UserError, match="none of the samples rated on 'q'"):
        check(stranger, "h", judge("q", JUDGE))
