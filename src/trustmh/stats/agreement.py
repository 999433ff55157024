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
