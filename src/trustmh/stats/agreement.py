"""Agreement between two raters on categorical labels."""

from __future__ import annotations

import numpy as np

from trustmh.stats.intervals import Estimate, bootstrap_statistic_ci


def _kappa_rows(pairs: np.ndarray) -> np.ndarray:
    """Cohen's kappa of each resample; ``pairs`` has shape ``(..., n, 2)`` of integer labels."""
    a, b = pairs[..., 0], pairs[..., 1]
    labels = np.unique(pairs)
    observed = np.mean(a == b, axis=-1)
    expected = sum(np.mean(a == k, axis=-1) * np.mean(b == k, axis=-1) for k in labels)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(expected < 1.0, (observed - expected) / (1.0 - expected), np.nan)


def cohen_kappa(a: np.ndarray | list[float], b: np.ndarray | list[float]) -> float:
    r"""Cohen's kappa :math:`\kappa = (p_o - p_e) / (1 - p_e)`.

    :math:`p_o` is the share of items both raters label alike, :math:`p_e = \sum_k p_{a,k}
    p_{b,k}` the agreement expected by chance from each rater's label frequencies. NaN when
    :math:`p_e = 1` (both raters always give the same single label: kappa is undefined).
    """
    pairs = np.column_stack([np.asarray(a, dtype=float), np.asarray(b, dtype=float)])
    if pairs.shape[0] == 0:
        return float("nan")
    return float(_kappa_rows(pairs))


def kappa_estimate(a: np.ndarray | list[float], b: np.ndarray | list[float]) -> Estimate:
    """Cohen's kappa with a percentile bootstrap CI over items."""
    pairs = np.column_stack([np.asarray(a, dtype=float), np.asarray(b, dtype=float)])
    n = int(pairs.shape[0])
    if n == 0:
        return Estimate(float("nan"), 0)
    lo, hi = bootstrap_statistic_ci(pairs, _kappa_rows)
    return Estimate(cohen_kappa(pairs[:, 0], pairs[:, 1]), n, lo, hi)


def cohen_unit_sums(a: np.ndarray, b: np.ndarray, n_categories: int) -> np.ndarray:
    r"""Per-item sums from which Cohen's kappa of any (weighted) resample of items follows.

    Row :math:`i` is :math:`([a_i = b_i], [a_i = 0], \dots, [a_i = K-1], [b_i = 0], \dots, [b_i = K-1], 1)`
    for integer codes ``0..n_categories-1``; :func:`cohen_from_sums` turns summed rows into kappa. It
    is what a cluster bootstrap needs (all items of a cluster share one draw count), where
    :func:`kappa_estimate`'s item resampling cannot be used.
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    codes = np.arange(n_categories)
    return np.column_stack(
        [(a == b).astype(float), (a[:, None] == codes).astype(float), (b[:, None] == codes).astype(float)]
        + [np.ones(len(a))]
    )


def cohen_from_sums(sums: np.ndarray) -> np.ndarray:
    r"""Cohen's kappa from summed :func:`cohen_unit_sums` (any leading axes, e.g. replicates).

    .. math:: p_o = \frac{\sum_i [a_i = b_i]}{n}, \quad
              p_e = \sum_k \frac{\sum_i [a_i = k]}{n} \frac{\sum_i [b_i = k]}{n}, \quad
              \kappa = \frac{p_o - p_e}{1 - p_e}

    the formula of :func:`cohen_kappa`; NaN when :math:`p_e = 1` or no item was drawn.
    """
    sums = np.asarray(sums, dtype=float)
    k = (sums.shape[-1] - 2) // 2
    n = sums[..., -1]
    with np.errstate(divide="ignore", invalid="ignore"):
        observed = sums[..., 0] / n
        expected = (sums[..., 1 : 1 + k] * sums[..., 1 + k : 1 + 2 * k]).sum(axis=-1) / (n * n)
        return np.where((expected < 1.0) & (n > 0), (observed - expected) / (1.0 - expected), np.nan)


def category_counts(ratings: np.ndarray, n_categories: int) -> np.ndarray:
    """Per-item counts of each category: ``ratings`` ``(items, raters)`` of integer codes
    ``0..n_categories-1`` with NaN = not rated, gives ``(items, n_categories)``."""
    data = np.asarray(ratings, dtype=float)
    return np.stack([(data == k).sum(axis=1) for k in range(n_categories)], axis=1).astype(float)


def fleiss_unit_sums(counts: np.ndarray) -> np.ndarray:
    r"""Per-item sums from which Fleiss' kappa of any resample of items follows.

    Row :math:`i` is :math:`(n_{i1}, \dots, n_{iK}, P_i, 1)` with
    :math:`P_i = (\sum_j n_{ij}^2 - m_i) / (m_i (m_i - 1))`, :math:`m_i = \sum_j n_{ij}`.
    An item rated fewer than twice carries no pair: its row is zeros (it adds to no sum).
    """
    counts = np.asarray(counts, dtype=float)
    m = counts.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        p_i = ((counts * counts).sum(axis=1) - m) / (m * (m - 1))
    sums = np.column_stack([counts, p_i, np.ones(len(counts))])
    return np.where((m >= 2)[:, None], sums, 0.0)


def fleiss_from_sums(sums: np.ndarray) -> np.ndarray:
    r"""Fleiss' kappa from summed :func:`fleiss_unit_sums` (any leading axes, e.g. replicates).

    .. math:: \bar P = \frac1N \sum_i P_i, \quad p_j = \frac{\sum_i n_{ij}}{\sum_i m_i}, \quad
              \bar P_e = \sum_j p_j^2, \quad \kappa = \frac{\bar P - \bar P_e}{1 - \bar P_e}

    NaN when :math:`\bar P_e = 1` (every rating is the same category).
    """
    sums = np.asarray(sums, dtype=float)
    counts, p_sum, n_items = sums[..., :-2], sums[..., -2], sums[..., -1]
    with np.errstate(divide="ignore", invalid="ignore"):
        p_j = counts / counts.sum(axis=-1, keepdims=True)
        p_e = (p_j * p_j).sum(axis=-1)
        p_bar = p_sum / n_items
        return np.where(p_e < 1.0, (p_bar - p_e) / (1.0 - p_e), np.nan)


def fleiss_kappa(counts: np.ndarray) -> float:
    """Fleiss' kappa (Fleiss 1971) of ``(items, categories)`` rating counts.

    Fleiss defined it for the same number of raters per item (not the same raters); items
    with a different number are allowed here, each item's :math:`P_i` using its own
    :math:`m_i` (the usual generalisation); items rated fewer than twice are left out.
    With equal :math:`m` it equals ``statsmodels.stats.inter_rater.fleiss_kappa``.
    """
    sums = fleiss_unit_sums(counts)
    return float(fleiss_from_sums(sums.sum(axis=0))) if sums.shape[0] else float("nan")
