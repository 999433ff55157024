"""Correlation with bootstrap confidence intervals."""

from __future__ import annotations

import numpy as np

from trustmh.stats.intervals import DEFAULT_BOOTSTRAP, DEFAULT_SEED, Estimate, bootstrap_statistic_ci


def pearson_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    r"""Pearson's r along the last axis, vectorised over leading axes.

    .. math:: r = \frac{\sum (x_i-\bar x)(y_i-\bar y)}{\sqrt{\sum (x_i-\bar x)^2 \sum (y_i-\bar y)^2}}

    A constant row has no defined correlation and gives NaN.
    """
    xc = x - x.mean(axis=-1, keepdims=True)
    yc = y - y.mean(axis=-1, keepdims=True)
    num = (xc * yc).sum(axis=-1)
    den = np.sqrt((xc * xc).sum(axis=-1) * (yc * yc).sum(axis=-1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


def pearson_estimate(
    x: np.ndarray | list[float],
    y: np.ndarray | list[float],
    n_boot: int = DEFAULT_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
) -> Estimate:
    """Pearson's r over the pairs where both values are finite, with a pair-bootstrap CI."""
    xy = np.column_stack([np.asarray(x, dtype=float), np.asarray(y, dtype=float)])
    xy = xy[np.isfinite(xy).all(axis=1)]
    n = xy.shape[0]
    if n < 3:
        return Estimate(float("nan"), n)
    r = float(pearson_rows(xy[:, 0], xy[:, 1]))
    lo, hi = bootstrap_statistic_ci(xy, lambda s: pearson_rows(s[..., 0], s[..., 1]), n_boot=n_boot, seed=seed)
    return Estimate(r, n, lo, hi)


def _ranks(values: np.ndarray) -> np.ndarray:
    """Average ranks (ties share the mean of their ranks) along the last axis."""
    from scipy.stats import rankdata  # type: ignore[import-untyped]  # scipy.stats costs ~2 s to import: only when a rank is needed

    return np.asarray(rankdata(values, axis=-1), dtype=float)


def spearman_estimate(
    x: np.ndarray | list[float],
    y: np.ndarray | list[float],
    n_boot: int = DEFAULT_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
) -> Estimate:
    r"""Spearman's :math:`\rho` over the pairs where both values are finite, with a pair-bootstrap CI.

    :math:`\rho` is Pearson's r of the average ranks, :math:`\rho = r(\operatorname{rank} x, \operatorname{rank} y)`,
    which handles ties (with no ties it equals :math:`1 - 6\sum d_i^2 / (n(n^2-1))`). Each bootstrap
    replicate resamples pairs and ranks them anew. Fewer than 3 pairs: no estimate.
    """
    xy = np.column_stack([np.asarray(x, dtype=float), np.asarray(y, dtype=float)])
    xy = xy[np.isfinite(xy).all(axis=1)]
    n = xy.shape[0]
    if n < 3:
        return Estimate(float("nan"), n)
    rho = float(pearson_rows(_ranks(xy[:, 0]), _ranks(xy[:, 1])))
    lo, hi = bootstrap_statistic_ci(
        xy, lambda s: pearson_rows(_ranks(s[..., 0]), _ranks(s[..., 1])), n_boot=n_boot, seed=seed
    )
    return Estimate(rho, n, lo, hi)
