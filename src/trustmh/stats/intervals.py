"""Point estimates with confidence intervals.

All intervals are two-sided at level ``1 - alpha`` (95% by default).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

DEFAULT_BOOTSTRAP = 1000
DEFAULT_SEED = 20240607


@dataclass(frozen=True)
class Estimate:
    """A statistic with its sample size and (when estimable) a confidence interval."""

    value: float
    n: int
    ci_low: float = float("nan")
    ci_high: float = float("nan")

    def as_dict(self, name: str) -> dict[str, float]:
        """Flatten as ``{name, name_ci_low, name_ci_high, name_n}`` for inspect metrics."""
        return {
            name: self.value,
            f"{name}_ci_low": self.ci_low,
            f"{name}_ci_high": self.ci_high,
            f"{name}_n": float(self.n),
        }


def wilson_interval(successes: int, n: int, alpha: float = 0.05) -> tuple[float, float]:
    r"""Wilson score interval for a binomial proportion.

    .. math::
        \frac{\hat p + \frac{z^2}{2n} \pm z\sqrt{\frac{\hat p(1-\hat p)}{n} + \frac{z^2}{4n^2}}}
             {1 + \frac{z^2}{n}}

    with :math:`z = \Phi^{-1}(1-\alpha/2)`. Unlike the Wald interval it stays inside [0, 1]
    and behaves at p = 0 or 1, which is common here (e.g. a leak rate of 0/20).
    Returns ``(nan, nan)`` for ``n == 0``.
    """
    if n <= 0:
        return (float("nan"), float("nan"))
    # stdlib inverse normal CDF (same value as scipy.stats.norm.ppf to ~1e-15); importing
    # scipy.stats here cost ~2 s at the start of every trustmh command.
    z = NormalDist().inv_cdf(1 - alpha / 2)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def proportion_estimate(flags: np.ndarray | list[float], alpha: float = 0.05) -> Estimate:
    """Share of true values in ``flags`` (0/1) with a Wilson interval; NaNs are ignored."""
    x = np.asarray(flags, dtype=float)
    x = x[~np.isnan(x)]
    n = int(x.size)
    if n == 0:
        return Estimate(float("nan"), 0)
    k = int(np.sum(x > 0.5))
    lo, hi = wilson_interval(k, n, alpha)
    return Estimate(k / n, n, lo, hi)


# Resampled rows held at once (see bootstrap_statistic_ci). Small on purpose: inspect recomputes
# every metric while samples finish, and each chunk's arrays (indices, resampled rows) are freed
# back to glibc's heap, not to the system; 2,000,000 rows (~50 MB of temporaries per call) raised
# `trustmh audit`'s resident memory by ~55 MB on 2,000 conversations, 200,000 by ~5 MB (same numbers).
BOOTSTRAP_CHUNK_ELEMENTS = 200_000


def bootstrap_statistic_ci(
    data: np.ndarray,
    statistic: Callable[[np.ndarray], np.ndarray | float],
    n_boot: int = DEFAULT_BOOTSTRAP,
    alpha: float = 0.05,
    seed: int = DEFAULT_SEED,
) -> tuple[float, float]:
    """Percentile bootstrap CI of a statistic over the rows of ``data``.

    ``statistic`` receives resampled data of shape ``(n_boot, n, ...)`` and must return
    ``n_boot`` values (vectorised over the first axis). Replicates giving NaN (e.g. a
    correlation on a constant resample) are dropped; the interval is the
    ``alpha/2`` and ``1-alpha/2`` quantiles of the rest.
    """
    data = np.asarray(data)
    n = data.shape[0]
    if n < 2:
        return (float("nan"), float("nan"))
    rng = np.random.default_rng(seed)
    # Replicates in chunks: resampling all at once holds n_boot x n rows (10,000 conversations x
    # 1,000 replicates of two columns = 160 MB, plus the indices). Drawing the indices chunk by
    # chunk gives the same numbers as one draw (the generator fills row after row; tested).
    chunk = max(1, BOOTSTRAP_CHUNK_ELEMENTS // max(1, n))
    parts = []
    for start in range(0, n_boot, chunk):
        idx = rng.integers(0, n, size=(min(chunk, n_boot - start), n))
        parts.append(np.asarray(statistic(data[idx]), dtype=float).reshape(-1))
    reps = np.concatenate(parts)
    reps = reps[np.isfinite(reps)]
    if reps.size == 0:
        return (float("nan"), float("nan"))
    lo, hi = np.quantile(reps, [alpha / 2, 1 - alpha / 2])
    return (float(lo), float(hi))


def bootstrap_mean_ci(
    values: np.ndarray | list[float],
    n_boot: int = DEFAULT_BOOTSTRAP,
    alpha: float = 0.05,
    seed: int = DEFAULT_SEED,
) -> tuple[float, float]:
    """Percentile bootstrap CI of the mean of ``values`` (NaNs removed first)."""
    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    return bootstrap_statistic_ci(x, lambda r: r.mean(axis=1), n_boot, alpha, seed)


def mean_estimate(values: np.ndarray | list[float], alpha: float = 0.05) -> Estimate:
    """Mean of the non-NaN ``values`` with a percentile bootstrap CI."""
    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    if x.size == 0:
        return Estimate(float("nan"), 0)
    lo, hi = bootstrap_mean_ci(x, alpha=alpha)
    return Estimate(float(x.mean()), int(x.size), lo, hi)
