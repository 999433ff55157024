"""Spread of a measure across groups in a paired design (same items under every group).

Data is a matrix ``values[item, group]`` (NaN where a cell is missing, e.g. an unparsed judge
verdict). The group means are column means over items; the spread is their range
(max - min) or population standard deviation. The CI is a *paired* percentile bootstrap:
items (whole rows) are resampled, so each replicate keeps every item's groups together and the
item-to-item variation common to all groups cancels out of the spread.
"""

from __future__ import annotations

import warnings

import numpy as np

from trustmh.stats.intervals import DEFAULT_BOOTSTRAP, DEFAULT_SEED, Estimate, bootstrap_statistic_ci

SPREADS = ("range", "std")


def group_means(values: np.ndarray) -> np.ndarray:
    """Column means ignoring NaN (axis -2 = items); NaN for a group with no value."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanmean(values, axis=-2)


def spread_of(means: np.ndarray, kind: str) -> np.ndarray:
    """Range or population std of the group means along the last axis, ignoring NaN groups.

    NaN when fewer than two groups have a mean.
    """
    if kind not in SPREADS:
        raise ValueError(f"spread kind must be one of {SPREADS}, not {kind!r}")
    observed = np.sum(~np.isnan(means), axis=-1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        result = np.nanmax(means, axis=-1) - np.nanmin(means, axis=-1) if kind == "range" else np.nanstd(means, axis=-1)
    return np.where(observed >= 2, result, np.nan)


def paired_spread(
    values: np.ndarray | list[list[float]],
    kind: str = "range",
    n_boot: int = DEFAULT_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
) -> Estimate:
    """Spread of the group means with a paired bootstrap CI over items (rows).

    ``n`` is the number of items with a value for at least two groups (only those are kept).
    """
    matrix = np.asarray(values, dtype=float)
    if matrix.ndim != 2:
        raise ValueError("values must be a 2-D matrix [item, group]")
    matrix = matrix[np.sum(~np.isnan(matrix), axis=1) >= 2]
    n = int(matrix.shape[0])
    if n == 0:
        return Estimate(float("nan"), 0)
    value = float(spread_of(group_means(matrix), kind))
    lo, hi = bootstrap_statistic_ci(matrix, lambda reps: spread_of(group_means(reps), kind), n_boot=n_boot, seed=seed)
    return Estimate(value, n, lo, hi)


def worst_group(values: np.ndarray | list[list[float]], higher_is_worse: bool) -> int | None:
    """Index of the group with the worst mean (lowest, or highest if ``higher_is_worse``)."""
    means = group_means(np.asarray(values, dtype=float))
    if np.all(np.isnan(means)):
        return None
    return int(np.nanargmax(means) if higher_is_worse else np.nanargmin(means))


def paired_permutation_p(
    values: np.ndarray | list[list[float]],
    kind: str = "range",
    n_perm: int = DEFAULT_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
) -> float:
    """p-value of "the group labels do not matter" for the spread of group means.

    The spread is never negative, so its bootstrap CI rarely reaches 0 even when groups are
    treated alike; this test answers that question instead. Under the null each item's values
    are exchangeable across groups, so the labels are shuffled *within* every item (row) and
    ``p = (1 + #{permuted spread >= observed}) / (1 + n_perm)``. NaN with fewer than two items.
    """
    matrix = np.asarray(values, dtype=float)
    matrix = matrix[np.sum(~np.isnan(matrix), axis=1) >= 2]
    if matrix.shape[0] < 2:
        return float("nan")
    observed = float(spread_of(group_means(matrix), kind))
    rng = np.random.default_rng(seed)
    order = rng.random((n_perm, *matrix.shape)).argsort(axis=-1)
    permuted = np.take_along_axis(np.broadcast_to(matrix, order.shape), order, axis=-1)
    spreads = spread_of(group_means(permuted), kind)
    # A tolerance so ties with the observed value (e.g. identical groups) count as ">=".
    extreme = int(np.sum(spreads >= observed - 1e-12))
    return (1 + extreme) / (1 + n_perm)
