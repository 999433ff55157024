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
