"""Metric functions against hand-computed values and scikit-learn."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score, f1_score
from sklearn.metrics import confusion_matrix as sk_confusion

from trustmh.stats import wilson_interval
from trustmh.stats.classification import (
    accuracy,
    confusion_matrix,
    high_risk_false_negative_rate,
    high_risk_recall,
    macro_f1,
    per_class_recall,
    quadratic_weighted_kappa,
    triage_rates,
)
from trustmh.stats.robustness import paired_bootstrap_relative_drop, relative_drop

GOLD = ["si", "si", "sh", "sh", "nc", "nc", "nc", "ax"]
PRED = ["si", "nc", "si", "sh", "nc", "ax", "nc", "ax"]
LABELS = ["si", "sh", "ax", "nc"]


def test_confusion_matrix_by_hand() -> None:
    expected = np.array(
        [
            [1, 0, 0, 1],  # si: 1 right, 1 -> nc
            [1, 1, 0, 0],  # sh: 1 -> si, 1 right
            [0, 0, 1, 0],  # ax
            [0, 0, 1, 2],  # nc: 1 -> ax, 2 right
        ]
    )
    assert (confusion_matrix(GOLD, PRED, LABELS) == expected).all()
    assert (confusion_matrix(GOLD, PRED, LABELS) == sk_confusion(GOLD, PRED, labels=LABELS)).all()


def test_confusion_matrix_rejects_unknown_label() -> None:
    with pytest.raises(ValueError, match="'zz'"):
        confusion_matrix(["si"], ["zz"], LABELS)


def test_macro_f1_by_hand_and_sklearn() -> None:
    # si: tp1 fp1 fn1 -> 2/4; sh: tp1 fp0 fn1 -> 2/3; ax: tp1 fp1 fn0 -> 2/3; nc: tp2 fp1 fn1 -> 4/6
    expected = (0.5 + 2 / 3 + 2 / 3 + 2 / 3) / 4
    assert macro_f1(GOLD, PRED, LABELS) == pytest.approx(expected)
    assert macro_f1(GOLD, PRED, LABELS) == pytest.approx(
        f1_score(GOLD, PRED, labels=LABELS, average="macro", zero_division=0)
    )


def test_macro_f1_leaves_out_a_class_absent_from_gold_and_prediction() -> None:
    # "vt" occurs nowhere: its F1 is undefined, so it does not drag the mean down
    # (scikit-learn's default label set, see trustmh.stats.classification).
    labels = LABELS + ["vt"]
    assert macro_f1(GOLD, PRED, labels) == pytest.approx(macro_f1(GOLD, PRED, LABELS))
    assert macro_f1(GOLD, PRED, labels) == pytest.approx(f1_score(GOLD, PRED, average="macro", zero_division=0))


def test_per_class_recall_and_accuracy() -> None:
    recall = {label: e.value for label, e in per_class_recall(GOLD, PRED, LABELS + ["vt"]).items()}
    assert recall["si"] == 0.5 and recall["sh"] == 0.5 and recall["ax"] == 1.0 and recall["nc"] == pytest.approx(2 / 3)
    assert math.isnan(recall["vt"])
    nc = per_class_recall(GOLD, PRED, LABELS)["nc"]
    assert nc.n == 3 and (nc.ci_low, nc.ci_high) == wilson_interval(2, 3)
    # a prediction outside the labels (an unparsed answer in a strict count) is a miss
    assert per_class_recall(["si", "si"], ["si", "(unparsed)"], ["si"])["si"].value == 0.5
    assert accuracy(GOLD, PRED) == 5 / 8


def test_high_risk_recall_counts_any_high_risk_prediction() -> None:
    # si->si, si->nc, sh->si (still escalated), sh->sh: 3 of 4 recalled, 1 of 4 missed as no crisis.
    recall = high_risk_recall(GOLD, PRED, ["si", "sh"])
    assert recall.value == 0.75 and recall.n == 4 and (recall.ci_low, recall.ci_high) == wilson_interval(3, 4)
    assert high_risk_false_negative_rate(GOLD, PRED, ["si", "sh"], "nc").value == 0.25
    assert math.isnan(high_risk_recall(["nc"], ["nc"], ["si"]).value)


def test_qwk_by_hand() -> None:
    # gold [0,1,2], pred [0,2,2]: O has cells (0,0),(1,2),(2,2); w = (i-j)^2/4.
    # sum w*O = 1/4. Row marginals [1,1,1], column [1,0,2], E = outer/3.
    # sum w*E = (1/3)*[ (0*1+1/4*0+1*2) + (1/4*1+0+1/4*2) + (1*1+0+0) ] = (1/3)*(2 + 0.75 + 1) = 1.25
    assert quadratic_weighted_kappa([0, 1, 2], [0, 2, 2], 3) == pytest.approx(1 - 0.25 / 1.25)


@pytest.mark.parametrize("seed", range(5))
def test_qwk_matches_sklearn(seed: int) -> None:
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 5, 60)
    pred = np.clip(gold + rng.integers(-2, 3, 60), 0, 4)
    assert quadratic_weighted_kappa(gold, pred, 5) == pytest.approx(cohen_kappa_score(gold, pred, weights="quadratic"))


def test_qwk_perfect_and_degenerate() -> None:
    assert quadratic_weighted_kappa([0, 1, 4], [0, 1, 4], 5) == pytest.approx(1.0)
    assert math.isnan(quadratic_weighted_kappa([2, 2], [2, 2], 5))
    assert math.isnan(quadratic_weighted_kappa([], [], 5))


def test_triage_rates() -> None:
    under, over = triage_rates([0, 2, 4, 3], [1, 1, 4, 0])
    assert (under.value, over.value) == (0.5, 0.25) and under.n == over.n == 4


def test_relative_drop_and_paired_bootstrap() -> None:
    clean = [1, 1, 1, 1, 0]
    perturbed = [1, 0, 1, 0, 0]
    assert relative_drop(np.array(clean), np.array(perturbed)) == pytest.approx((0.8 - 0.4) / 0.8)
    estimate = paired_bootstrap_relative_drop(clean, perturbed)
    assert estimate.value == pytest.approx(0.5) and estimate.n == 5
    assert estimate.ci_low <= 0.5 <= estimate.ci_high
    # Identical conditions: no drop and a degenerate interval at 0.
    same = paired_bootstrap_relative_drop([1, 0, 1, 1], [1, 0, 1, 1])
    assert same.value == 0 and same.ci_low == 0 and same.ci_high == 0
    assert math.isnan(paired_bootstrap_relative_drop([], []).value)


def test_confusion_matrix_matches_sklearn_on_random_labels_and_when_empty() -> None:
    rng = np.random.default_rng(7)
    labels = ["a", "b", "c", "d", "e"]
    for n in (0, 1, 17, 500):
        gold = [labels[i] for i in rng.integers(0, 5, n)]
        pred = [labels[i] for i in rng.integers(0, 4, n)]  # "e" never predicted
        ours = confusion_matrix(gold, pred, labels)
        assert ours.dtype == np.int64 and ours.shape == (5, 5)
        expected = sk_confusion(gold, pred, labels=labels) if n else np.zeros((5, 5))
        assert (ours == expected).all()
