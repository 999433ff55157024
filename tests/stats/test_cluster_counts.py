"""Cluster bootstrap counts item by item, and Cohen's kappa from per-item sums (the per-turn CIs of
``trustmh judge-check``)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from trustmh.stats.agreement import cohen_from_sums, cohen_kappa, cohen_unit_sums
from trustmh.stats.bootstrap import cluster_item_counts, resample_counts


def test_items_of_one_cluster_are_drawn_together() -> None:
    clusters = ["a", "a", "b", "c", "c", "c"]
    counts = cluster_item_counts(clusters, 300, seed=5)
    assert counts.shape == (300, 6)
    assert (counts[:, 0] == counts[:, 1]).all() and (counts[:, 3] == counts[:, 4]).all()
    assert (counts[:, 4] == counts[:, 5]).all()
    # three clusters drawn three times in each replicate: the per-cluster counts sum to 3
    assert (counts[:, [0, 2, 3]].sum(axis=1) == 3).all()
    assert np.array_equal(counts[:, [0, 2, 3]], resample_counts(3, 300, seed=5))  # the same draws


def test_cohen_from_sums_equals_cohen_kappa_and_sklearn() -> None:
    rng = np.random.default_rng(2)
    a, b = rng.integers(0, 3, 40), rng.integers(0, 3, 40)
    b[:25] = a[:25]
    sums = cohen_unit_sums(a, b, 3).sum(axis=0)
    assert float(cohen_from_sums(sums)) == pytest.approx(cohen_kappa(a, b))
    assert float(cohen_from_sums(sums)) == pytest.approx(cohen_kappa_score(a, b))


def test_cohen_from_weighted_sums_equals_kappa_of_the_repeated_items() -> None:
    a, b = np.array([0, 1, 1, 0, 1]), np.array([0, 1, 0, 0, 0])
    weights = np.array([2.0, 0.0, 1.0, 3.0, 1.0])
    weighted = cohen_from_sums(weights @ cohen_unit_sums(a, b, 2))
    repeated = cohen_kappa(np.repeat(a, weights.astype(int)), np.repeat(b, weights.astype(int)))
    assert float(weighted) == pytest.approx(repeated)
    assert np.isnan(cohen_from_sums(np.zeros(6)))  # nothing drawn
    assert weighted.shape == ()
