r"""Classification statistics: confusion matrix, per-class and macro F1, accuracy.

Generic over the label set: every function takes the gold and predicted labels (any
hashable values, e.g. ``"self.depression"`` or ``2``) and the ordered list of ``labels``,
and returns plain numbers or numpy arrays indexed in that order. Pairs whose gold or
predicted label is not in ``labels`` are an error: callers drop unparsed predictions
(``None``) first and report how many they dropped.

With :math:`C` the confusion matrix (rows: gold class, columns: predicted class) and class
:math:`k`:

.. math::
    TP_k = C_{kk}, \quad FP_k = \sum_i C_{ik} - C_{kk}, \quad FN_k = \sum_j C_{kj} - C_{kk}

    F1_k = \frac{2\,TP_k}{2\,TP_k + FP_k + FN_k}

    \text{macro-}F1 = \frac{1}{|K|} \sum_{k \in K} F1_k,
    \quad K = \{k : TP_k + FP_k + FN_k > 0\}

i.e. the mean over the classes that occur as gold or predicted label, which equals
scikit-learn's ``f1_score(average="macro", zero_division=0)`` with its default labels (the
sorted union of gold and predicted labels). A class of ``labels`` that is neither gold nor
predicted in the data has an undefined F1 and is left out, so a small subset of items is
not penalised for the classes it happens not to contain.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np

from trustmh.stats.intervals import (
    DEFAULT_BOOTSTRAP,
    DEFAULT_SEED,
    Estimate,
    bootstrap_statistic_ci,
    proportion_estimate,
)


def _encode(values: Sequence[Hashable], labels: Sequence[Hashable], what: str) -> np.ndarray:
    index = {label: i for i, label in enumerate(labels)}
    if len(index) != len(labels):
        raise ValueError("labels must be distinct")
    try:
        return np.asarray([index[v] for v in values], dtype=np.int64)
    except KeyError as error:
        raise ValueError(f"{what} label {error.args[0]!r} is not one of {list(labels)!r}") from None


def encode_pairs(
    y_true: Sequence[Hashable], y_pred: Sequence[Hashable], labels: Sequence[Hashable]
) -> tuple[np.ndarray, np.ndarray]:
    """Gold and predicted labels as integer indices into ``labels``."""
    if len(y_true) != len(y_pred):
        raise ValueError(f"{len(y_true)} gold labels but {len(y_pred)} predictions")
    return _encode(y_true, labels, "gold"), _encode(y_pred, labels, "predicted")


def confusion_matrix(y_true: Sequence[Hashable], y_pred: Sequence[Hashable], labels: Sequence[Hashable]) -> np.ndarray:
    """Counts ``C[i, j]`` of items of gold class ``labels[i]`` predicted as ``labels[j]``.

    Same convention as ``sklearn.metrics.confusion_matrix(y_true, y_pred, labels=labels)``
    (a test compares them); counted with ``numpy.bincount`` over ``k * i + j``, because importing
    ``sklearn.metrics`` costs a ``trustmh run`` seconds of start-up for a few integer counts.
    """
    true_idx, pred_idx = encode_pairs(y_true, y_pred, labels)
    k = len(labels)
    return np.bincount(true_idx * k + pred_idx, minlength=k * k).astype(np.int64).reshape(k, k)


def per_class_scores(matrix: np.ndarray) -> dict[str, np.ndarray]:
    """Precision, recall, F1 and gold support per class of a confusion matrix.

    :math:`P_k = TP_k / (TP_k + FP_k)`, :math:`R_k = TP_k / (TP_k + FN_k)`,
    :math:`F1_k = 2TP_k / (2TP_k + FP_k + FN_k)`; a 0/0 ratio is NaN (undefined), not 0.
    """
    cm = np.asarray(matrix, dtype=float)
    tp = np.diag(cm)
    predicted = cm.sum(axis=0)
    support = cm.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(predicted > 0, tp / predicted, np.nan)
        recall = np.where(support > 0, tp / support, np.nan)
        denom = 2 * tp + (predicted - tp) + (support - tp)
        f1 = np.where(denom > 0, 2 * tp / denom, np.nan)
    return {"precision": precision, "recall": recall, "f1": f1, "support": support.astype(np.int64)}


def macro_f1_from_matrix(matrix: np.ndarray, scored: int | None = None) -> float:
    """Macro F1 over the classes with :math:`TP+FP+FN > 0` (NaN if there are none); with
    ``scored``, over those among the first ``scored`` classes only."""
    f1 = per_class_scores(matrix)["f1"][:scored]
    present = ~np.isnan(f1)
    return float(f1[present].mean()) if present.any() else float("nan")


def macro_f1(y_true: Sequence[Hashable], y_pred: Sequence[Hashable], labels: Sequence[Hashable] | None = None) -> float:
    """Unweighted mean of the per-class F1 (see the module docstring); NaN for no items.

    ``labels`` defaults to the classes present in gold or prediction, as scikit-learn does.
    """
    from sklearn.metrics import f1_score

    if labels is None:
        labels = sorted(set(y_true) | set(y_pred), key=str)
    true_idx, pred_idx = encode_pairs(y_true, y_pred, labels)
    if true_idx.size == 0:
        return float("nan")
    return float(f1_score(true_idx, pred_idx, average="macro", zero_division=0))


def accuracy(y_true: Sequence[Hashable], y_pred: Sequence[Hashable], labels: Sequence[Hashable] | None = None) -> float:
    r""":math:`\frac{1}{n}\sum_i [\hat y_i = y_i]`; NaN for no items."""
    if labels is None:
        labels = sorted(set(y_true) | set(y_pred), key=str)
    true_idx, pred_idx = encode_pairs(y_true, y_pred, labels)
    return float(np.mean(true_idx == pred_idx)) if true_idx.size else float("nan")


def _bootstrap_macro_f1(
    true_idx: np.ndarray, pred_idx: np.ndarray, k: int, n_boot: int, seed: int, scored: int | None = None
) -> np.ndarray:
    """Macro F1 (over the first ``scored`` classes) of ``n_boot`` resamples of the pairs,
    vectorised through count matrices."""
    n = true_idx.size
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, size=(n_boot, n))
    codes = true_idx[idx] * k + pred_idx[idx] + (np.arange(n_boot)[:, None] * k * k)
    counts = np.bincount(codes.ravel(), minlength=n_boot * k * k).reshape(n_boot, k, k).astype(float)
    tp = np.diagonal(counts, axis1=1, axis2=2)
    denom = counts.sum(axis=1) + counts.sum(axis=2)  # (2TP + FP + FN) per class
    with np.errstate(divide="ignore", invalid="ignore"):
        f1 = np.where(denom > 0, 2 * tp / denom, np.nan)[:, :scored]
        present = (denom[:, :scored] > 0).sum(axis=1)
        return np.nansum(f1, axis=1) / present


def macro_f1_estimate(
    y_true: Sequence[Hashable],
    y_pred: Sequence[Hashable],
    labels: Sequence[Hashable],
    n_boot: int = DEFAULT_BOOTSTRAP,
    alpha: float = 0.05,
    seed: int = DEFAULT_SEED,
    scored: int | None = None,
) -> Estimate:
    """Macro F1 with a percentile bootstrap CI over items (resampling (gold, predicted) pairs).

    ``scored``: average over the first ``scored`` labels only. The labels after them are
    predictions that are never right (e.g. an unparsed answer as its own label): they count
    as a false negative of the gold class but have no F1 of their own.
    """
    true_idx, pred_idx = encode_pairs(y_true, y_pred, labels)
    n = int(true_idx.size)
    if n == 0:
        return Estimate(float("nan"), 0)
    k = len(labels) if scored is None else scored
    value = (
        macro_f1(y_true, y_pred, labels)
        if scored is None
        else macro_f1_from_matrix(confusion_matrix(y_true, y_pred, labels), k)
    )
    if n < 2:
        return Estimate(value, n)
    reps = _bootstrap_macro_f1(true_idx, pred_idx, len(labels), n_boot, seed, k)
    lo, hi = np.quantile(reps[np.isfinite(reps)], [alpha / 2, 1 - alpha / 2])
    return Estimate(value, n, float(lo), float(hi))


def accuracy_estimate(y_true: Sequence[Hashable], y_pred: Sequence[Hashable], labels: Sequence[Hashable]) -> Estimate:
    """Accuracy with a Wilson 95% interval (see :func:`trustmh.stats.wilson_interval`)."""
    true_idx, pred_idx = encode_pairs(y_true, y_pred, labels)
    return proportion_estimate((true_idx == pred_idx).astype(float))


# Ordinal severity and clinical risk (crisis pillar). Rates are Estimates with a Wilson CI.


def per_class_recall(
    gold: Sequence[Hashable], pred: Sequence[Hashable], labels: Sequence[Hashable]
) -> dict[Hashable, Estimate]:
    r"""Recall of each class, :math:`R_k = C_{kk} / \sum_j C_{kj}`, n = its gold items; NaN for a
    class with no gold item. ``pred`` may hold labels outside ``labels`` (e.g. an unparsed
    answer): they count as misses."""
    g = np.asarray(gold, dtype=object)
    hits = np.asarray([p == t for t, p in zip(gold, pred, strict=True)], dtype=float)
    return {label: proportion_estimate(hits[g == label]) for label in labels}


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


def quadratic_weighted_kappa_estimate(gold: Sequence[int], pred: Sequence[int], n_levels: int) -> Estimate:
    """:func:`quadratic_weighted_kappa` with a percentile bootstrap CI over items (500 resamples)."""
    pairs = np.column_stack([np.asarray(gold, dtype=int), np.asarray(pred, dtype=int)]).reshape(-1, 2)
    if pairs.shape[0] == 0:
        return Estimate(float("nan"), 0)

    def replicate(resampled: np.ndarray) -> np.ndarray:
        return np.array([quadratic_weighted_kappa(r[:, 0], r[:, 1], n_levels) for r in resampled])

    low, high = bootstrap_statistic_ci(pairs, replicate, n_boot=500)
    kappa = quadratic_weighted_kappa(pairs[:, 0].tolist(), pairs[:, 1].tolist(), n_levels)
    return Estimate(kappa, int(pairs.shape[0]), low, high)


def triage_rates(gold_levels: Sequence[int], pred_levels: Sequence[int]) -> tuple[Estimate, Estimate]:
    """``(under_triage_rate, over_triage_rate)``: shares of items predicted below / above gold.

    Under-triage (a predicted severity lower than the true one) is the dangerous error in a
    risk assessment; over-triage costs resources. NaN for both when empty.
    """
    g = np.asarray(gold_levels, dtype=float)
    p = np.asarray(pred_levels, dtype=float)
    return proportion_estimate((p < g).astype(float)), proportion_estimate((p > g).astype(float))


def high_risk_recall(gold: Sequence[Hashable], pred: Sequence[Hashable], high_risk: Sequence[Hashable]) -> Estimate:
    """Share of high-risk gold items whose prediction is *some* high-risk class.

    Confusing suicidal ideation with self-harm still escalates the item, so it counts as
    recalled. NaN when no gold item is high risk.
    """
    risky = set(high_risk)
    return proportion_estimate([float(p in risky) for g, p in zip(gold, pred, strict=True) if g in risky])


def high_risk_false_negative_rate(
    gold: Sequence[Hashable], pred: Sequence[Hashable], high_risk: Sequence[Hashable], negative: Hashable
) -> Estimate:
    """Share of high-risk gold items predicted as ``negative`` (e.g. ``no_crisis``); NaN if none."""
    risky = set(high_risk)
    return proportion_estimate([float(p == negative) for g, p in zip(gold, pred, strict=True) if g in risky])
