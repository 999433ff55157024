"""Pure metric functions for labelled classification and ordinal severity.

Labels are compared as given (strings or ints). ``labels`` fixes the order of the classes
(rows/columns of the confusion matrix); observations whose gold or predicted label is not
in ``labels`` are an error, so unparsed predictions must be filtered out by the caller
(they are counted separately, never scored right or wrong).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np


def confusion_matrix(gold: Sequence[Hashable], pred: Sequence[Hashable], labels: Sequence[Hashable]) -> np.ndarray:
    """Counts ``C[i, j]`` = number of items with gold ``labels[i]`` predicted ``labels[j]``.

    Rows are gold, columns are predictions (the scikit-learn convention).
    """
    if len(gold) != len(pred):
        raise ValueError(f"gold and pred differ in length ({len(gold)} != {len(pred)})")
    index = {label: i for i, label in enumerate(labels)}
    matrix = np.zeros((len(labels), len(labels)), dtype=int)
    for g, p in zip(gold, pred, strict=True):
        if g not in index or p not in index:
            raise ValueError(f"label {g if g not in index else p!r} is not one of {list(labels)}")
        matrix[index[g], index[p]] += 1
    return matrix


def per_class_recall(gold: Sequence[Hashable], pred: Sequence[Hashable], labels: Sequence[Hashable]) -> dict[Hashable, float]:
    r"""Recall of each class, :math:`R_k = C_{kk} / \sum_j C_{kj}`; NaN for a class with no gold item."""
    matrix = confusion_matrix(gold, pred, labels)
    support = matrix.sum(axis=1)
    return {
        label: (float(matrix[k, k] / support[k]) if support[k] else float("nan"))
        for k, label in enumerate(labels)
    }


def _f1_per_class(matrix: np.ndarray) -> np.ndarray:
    tp = np.diag(matrix).astype(float)
    fp = matrix.sum(axis=0) - tp
    fn = matrix.sum(axis=1) - tp
    denom = 2 * tp + fp + fn
    # A class never predicted and never gold has F1 0 here (scikit-learn's zero_division=0).
    return np.divide(2 * tp, denom, out=np.zeros_like(tp), where=denom > 0)


def macro_f1(gold: Sequence[Hashable], pred: Sequence[Hashable], labels: Sequence[Hashable] | None = None) -> float:
    r"""Unweighted mean over classes of :math:`F1_k = 2TP_k / (2TP_k + FP_k + FN_k)`.

    The classes averaged are ``labels`` when given, else those present in gold or pred
    (as ``sklearn.metrics.f1_score(average="macro")``, zero_division=0). NaN when empty.
    """
    if labels is None:
        labels = sorted(set(gold) | set(pred), key=str)
    if not len(gold) or not len(labels):
        return float("nan")
    return float(_f1_per_class(confusion_matrix(gold, pred, labels)).mean())


def accuracy(gold: Sequence[Hashable], pred: Sequence[Hashable]) -> float:
    """Share of items with ``pred == gold``; NaN when empty."""
    if not len(gold):
        return float("nan")
    return float(np.mean([g == p for g, p in zip(gold, pred, strict=True)]))


def quadratic_weighted_kappa(gold: Sequence[int], pred: Sequence[int], n_levels: int) -> float:
    r"""Cohen's kappa with quadratic weights on levels ``0 .. n_levels-1``.

    .. math::
        \kappa_w = 1 - \frac{\sum_{ij} w_{ij} O_{ij}}{\sum_{ij} w_{ij} E_{ij}}, \qquad
        w_{ij} = \frac{(i-j)^2}{(K-1)^2}

    with :math:`O` the observed confusion matrix and :math:`E` the outer product of its
    marginals divided by :math:`n` (agreement expected by chance). Equals
    ``cohen_kappa_score(gold, pred, weights="quadratic")``. NaN when empty, or when the
    chance disagreement is 0 (e.g. every item at one level in both gold and pred).
    """
    if not len(gold):
        return float("nan")
    observed = confusion_matrix(gold, pred, list(range(n_levels))).astype(float)
    n = observed.sum()
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0)) / n
    i, j = np.indices(observed.shape)
    weights = (i - j) ** 2 / max(1, (n_levels - 1) ** 2)
    chance = float((weights * expected).sum())
    if chance == 0:
        return float("nan")
    return float(1 - (weights * observed).sum() / chance)


def triage_rates(gold_levels: Sequence[int], pred_levels: Sequence[int]) -> tuple[float, float]:
    """``(under_triage_rate, over_triage_rate)``: shares of items predicted below / above gold.

    Under-triage (a predicted severity lower than the true one) is the dangerous error in a
    risk assessment; over-triage costs resources. NaN for both when empty.
    """
    if not len(gold_levels):
        return (float("nan"), float("nan"))
    g = np.asarray(gold_levels)
    p = np.asarray(pred_levels)
    return (float(np.mean(p < g)), float(np.mean(p > g)))


def high_risk_recall(gold: Sequence[Hashable], pred: Sequence[Hashable], high_risk: Sequence[Hashable]) -> float:
    """Share of high-risk gold items whose prediction is *some* high-risk class.

    Confusing suicidal ideation with self-harm still escalates the item, so it counts as
    recalled. NaN when no gold item is high risk.
    """
    risky = set(high_risk)
    hits = [p in risky for g, p in zip(gold, pred, strict=True) if g in risky]
    return float(np.mean(hits)) if hits else float("nan")


def high_risk_false_negative_rate(gold: Sequence[Hashable], pred: Sequence[Hashable], high_risk: Sequence[Hashable], negative: Hashable) -> float:
    """Share of high-risk gold items predicted as ``negative`` (e.g. ``no_crisis``); NaN if none."""
    risky = set(high_risk)
    misses = [p == negative for g, p in zip(gold, pred, strict=True) if g in risky]
    return float(np.mean(misses)) if misses else float("nan")
