r"""Vectorised (cluster) bootstrap through resampling counts.

A bootstrap replicate that draws :math:`C` clusters with replacement is fully described by
how often each cluster was drawn, a count vector :math:`w \in \mathbb{N}^C` with
:math:`\sum w = C`. For any statistic that depends on the data only through sums
(see :mod:`trustmh.stats.paired`), the replicate's sums are :math:`w^\top M` where row
:math:`c` of :math:`M` holds cluster :math:`c`'s sums. All replicates at once are then
``W @ M`` with ``W`` of shape ``(n_boot, C)``: one BLAS call instead of a Python loop.

Resampling whole conversations (clusters) rather than single ratings keeps the
dependence between the responses to one conversation, which an item bootstrap would
ignore (too-narrow intervals).
"""

from __future__ import annotations

import numpy as np

from trustmh.stats.intervals import DEFAULT_BOOTSTRAP, DEFAULT_SEED


def resample_counts(
    n_units: int, n_boot: int = DEFAULT_BOOTSTRAP, seed: int | np.random.Generator = DEFAULT_SEED
) -> np.ndarray:
    """Counts matrix ``(n_boot, n_units)``: how often each unit is drawn in each replicate.

    Equivalent to ``bincount`` of ``n_units`` draws with replacement per replicate, done for
    all replicates with one ``bincount`` over offset indices.
    """
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    if n_units <= 0 or n_boot <= 0:
        return np.zeros((max(n_boot, 0), max(n_units, 0)))
    draws = rng.integers(0, n_units, size=(n_boot, n_units))
    flat = (draws + n_units * np.arange(n_boot)[:, None]).ravel()
    return np.bincount(flat, minlength=n_boot * n_units).reshape(n_boot, n_units).astype(float)


def cluster_item_counts(
    clusters: list[str] | np.ndarray, n_boot: int = DEFAULT_BOOTSTRAP, seed: int | np.random.Generator = DEFAULT_SEED
) -> np.ndarray:
    """Counts ``(n_boot, n_items)`` of a cluster bootstrap, item by item: each item is drawn as often
    as its cluster (``clusters[i]``, e.g. the conversation of a turn) in that replicate, so
    :func:`resampled_sums` of per-item sums gives the sums of resampled whole clusters."""
    _, cluster_of_item = np.unique(np.asarray(clusters, dtype=str), return_inverse=True)
    n_clusters = int(cluster_of_item.max()) + 1 if len(cluster_of_item) else 0
    return resample_counts(n_clusters, n_boot, seed)[:, cluster_of_item]


def resampled_sums(counts: np.ndarray, unit_sums: np.ndarray) -> np.ndarray:
    """Sums of every replicate: ``counts (B, C) @ unit_sums (C, ...)`` -> ``(B, ...)``."""
    unit_sums = np.asarray(unit_sums, dtype=float)
    flat = unit_sums.reshape(unit_sums.shape[0], -1)
    return (counts @ flat).reshape((counts.shape[0],) + unit_sums.shape[1:])


def percentile_ci(replicates: np.ndarray, alpha: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval along axis 0, ignoring non-finite replicates.

    Replicates can be undefined (e.g. an ICC of a resample where every subject is the same);
    they are dropped rather than counted as extreme values. A column with no finite
    replicate gives NaN.
    """
    reps = np.where(np.isfinite(replicates), replicates, np.nan)
    ok = np.isfinite(reps).any(axis=0)
    lo = np.full(reps.shape[1:], np.nan)
    hi = np.full(reps.shape[1:], np.nan)
    if ok.any():
        q = np.nanquantile(reps[:, ok], [alpha / 2, 1 - alpha / 2], axis=0)
        lo[ok], hi[ok] = q[0], q[1]
    return lo, hi
