"""Classification statistics against hand-computed values and scikit-learn."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.metrics import f1_score

from trustmh.stats.classification import (
    accuracy,
    accuracy_estimate,
    confusion_matrix,
    macro_f1,
    macro_f1_estimate,
    macro_f1_from_matrix,
    per_class_scores,
)

LABELS = ["a", "b", "c"]
GOLD = ["a", "a", "a", "b", "b", "c"]
PRED = ["a", "a", "b", "b", "c", "c"]


def test_confusion_matrix_by_hand() -> None:
    # rows gold a, b, c; columns predicted a, b, c
    expected = np.array([[2, 1, 0], [0, 1, 1], [0, 0, 1]])
    assert (confusion_matrix(GOLD, PRED, LABELS) == expected).all()
    # label order is the caller's
    reordered = confusion_matrix(GOLD, PRED, ["c", "b", "a"])
    assert (reordered == expected[::-1, ::-1]).all()


def test_per_class_and_macro_f1_by_hand() -> None:
    # a: TP 2, FP 0, FN 1 -> 4/5; b: TP 1, FP 1, FN 1 -> 2/4; c: TP 1, FP 1, FN 0 -> 2/3
    scores = per_class_scores(confusion_matrix(GOLD, PRED, LABELS))
    assert scores["f1"] == pytest.approx([0.8, 0.5, 2 / 3])
    assert scores["precision"] == pytest.approx([1.0, 0.5, 0.5])
    assert scores["recall"] == pytest.approx([2 / 3, 0.5, 1.0])
    assert list(scores["support"]) == [3, 2, 1]
    expected = (0.8 + 0.5 + 2 / 3) / 3
    assert macro_f1(GOLD, PRED, LABELS) == pytest.approx(expected)
    assert macro_f1_from_matrix(confusion_matrix(GOLD, PRED, LABELS)) == pytest.approx(expected)
    assert accuracy(GOLD, PRED, LABELS) == pytest.approx(4 / 6)


def test_absent_classes_are_left_out_but_wrong_predictions_count() -> None:
    # "d" is neither gold nor predicted: it does not pull the mean down.
    assert macro_f1(GOLD, PRED, LABELS + ["d"]) == pytest.approx(macro_f1(GOLD, PRED, LABELS))
    # "b" is only predicted: its F1 is 0 and it counts. a: 2/3, b: 0 -> 1/3.
    assert macro_f1(["a", "a"], ["a", "b"], ["a", "b"]) == pytest.approx(1 / 3)
    assert macro_f1_from_matrix(confusion_matrix(["a", "a"], ["a", "b"], ["a", "b", "c"])) == pytest.approx(1 / 3)


def test_matches_sklearn_on_random_data() -> None:
    rng = np.random.default_rng(0)
    labels = ["self.depression", "self.Anxiety", "self.bipolar", "self.SuicideWatch", "self.offmychest"]
    for _ in range(20):
        n = int(rng.integers(1, 60))
        gold = [labels[i] for i in rng.integers(0, 5, n)]
        pred = [labels[i] for i in rng.integers(0, 5, n)]
        assert macro_f1(gold, pred, labels) == pytest.approx(f1_score(gold, pred, average="macro", zero_division=0))
        assert macro_f1_from_matrix(confusion_matrix(gold, pred, labels)) == pytest.approx(macro_f1(gold, pred, labels))


def test_estimates() -> None:
    estimate = macro_f1_estimate(GOLD, PRED, LABELS)
    assert estimate.n == 6
    assert estimate.value == pytest.approx((0.8 + 0.5 + 2 / 3) / 3)
    assert 0.0 <= estimate.ci_low <= estimate.value <= estimate.ci_high <= 1.0
    acc = accuracy_estimate(GOLD, PRED, LABELS)
    assert acc.value == pytest.approx(4 / 6) and acc.n == 6
    assert acc.ci_low < acc.value < acc.ci_high
    perfect = macro_f1_estimate(LABELS * 4, LABELS * 4, LABELS)
    assert perfect.value == 1.0 and perfect.ci_low == 1.0 and perfect.ci_high == 1.0


def test_bootstrap_replicates_match_a_slow_loop() -> None:
    from trustmh.stats.classification import _bootstrap_macro_f1, encode_pairs

    true_idx, pred_idx = encode_pairs(GOLD, PRED, LABELS)
    fast = _bootstrap_macro_f1(true_idx, pred_idx, 3, 50, seed=7)
    rng = np.random.default_rng(7)
    idx = rng.integers(0, len(GOLD), size=(50, len(GOLD)))
    slow = [f1_score(true_idx[row], pred_idx[row], average="macro", zero_division=0) for row in idx]
    assert fast == pytest.approx(slow)


def test_empty_and_invalid_input() -> None:
    assert math.isnan(macro_f1([], [], LABELS))
    assert math.isnan(accuracy([], [], LABELS))
    assert macro_f1_estimate([], [], LABELS).n == 0
    assert confusion_matrix([], [], LABELS).shape == (3, 3)
    with pytest.raises(ValueError, match="not one of"):
        macro_f1(["a"], ["z"], LABELS)
    with pytest.raises(ValueError, match="gold labels"):
        macro_f1(["a"], [], LABELS)
    with pytest.raises(ValueError, match="distinct"):
        confusion_matrix(["a"], ["a"], ["a", "a"])


def test_macro_f1_with_never_right_extra_labels_averages_over_the_real_classes() -> None:
    # gold a,a,b,b; pred a,(u),b,b with "(u)" an unparsed answer: F1_a = 2/3, F1_b = 1
    labels = ["a", "b", "(u)"]
    estimate = macro_f1_estimate(["a", "a", "b", "b"], ["a", "(u)", "b", "b"], labels, scored=2)
    assert estimate.value == pytest.approx((2 / 3 + 1) / 2) and estimate.n == 4
    assert estimate.ci_low <= estimate.value <= estimate.ci_high
