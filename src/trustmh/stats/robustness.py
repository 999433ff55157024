"""Paired statistics for robustness: how much a score drops when inputs are perturbed."""

from __future__ import annotations

import numpy as np

from trustmh.stats.intervals import DEFAULT_BOOTSTRAP, DEFAULT_SEED, Estimate, bootstrap_statistic_ci


def relative_drop(clean: np.ndarray, perturbed: np.ndarray) -> float:
    r"""``(mean(clean) - mean(perturbed)) / mean(clean)``; NaN when the clean mean is 0 or no pairs.

    Positive values are a loss (0.25 = the perturbed score is 25% below the clean one).
    """
    clean = np.asarray(clean, dtype=float)
    perturbed = np.asarray(perturbed, dtype=float)
    if clean.size == 0 or clean.mean() == 0:
        return float("nan")
    return float((clean.mean() - perturbed.mean()) / clean.mean())


def paired_bootstrap_relative_drop(
    clean: np.ndarray | list[float],
    perturbed: np.ndarray | list[float],
    n_boot: int = DEFAULT_BOOTSTRAP,
    alpha: float = 0.05,
    seed: int = DEFAULT_SEED,
) -> Estimate:
    r"""Relative drop with a paired percentile bootstrap CI.

    ``clean[i]`` and ``perturbed[i]`` are the scores of the same item; the bootstrap
    resamples *items* (pairs), so the between-item variance common to both conditions
    cancels, as it should when both come from the same samples in the same run. Replicates
    whose clean mean is 0 are dropped (see :func:`bootstrap_statistic_ci`).
    """
    pairs = np.column_stack([np.asarray(clean, dtype=float), np.asarray(perturbed, dtype=float)])
    n = pairs.shape[0]
    if n == 0:
        return Estimate(float("nan"), 0)

    def statistic(resampled: np.ndarray) -> np.ndarray:
        clean_means = resampled[:, :, 0].mean(axis=1)
        perturbed_means = resampled[:, :, 1].mean(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(clean_means != 0, (clean_means - perturbed_means) / clean_means, np.nan)

    low, high = bootstrap_statistic_ci(pairs, statistic, n_boot, alpha, seed)
    return Estimate(relative_drop(pairs[:, 0], pairs[:, 1]), n, low, high)
