"""Paired spread statistics against hand-computed values."""

from __future__ import annotations

import numpy as np
import pytest

from trustmh.stats.group_spread import paired_spread, spread_of, worst_group

NAN = float("nan")


def test_range_and_std_of_group_means() -> None:
    values = [[1, 2, 3], [2, 3, 4], [1, 1, 1], [NAN, 2, 5]]
    # Group means: 4/3, 2, 13/4.
    means = np.array([4 / 3, 2, 13 / 4])
    assert paired_spread(values, "range").value == pytest.approx(13 / 4 - 4 / 3)
    assert paired_spread(values, "std").value == pytest.approx(float(np.std(means)))
    assert paired_spread(values, "range").n == 4
    assert worst_group(values, higher_is_worse=False) == 0
    assert worst_group(values, higher_is_worse=True) == 2


def test_identical_groups_have_zero_spread_and_zero_width_ci() -> None:
    values = [[3, 3, 3], [1, 1, 1], [5, 5, 5]]
    estimate = paired_spread(values, "range")
    # Pairing: item differences cancel, so the CI collapses to 0 despite very different items.
    assert (estimate.value, estimate.ci_low, estimate.ci_high) == (0.0, 0.0, 0.0)


def test_ci_contains_estimate_and_rows_with_one_group_are_dropped() -> None:
    rng = np.random.default_rng(0)
    values = rng.normal(size=(30, 4)) + np.array([0, 0, 0, 1.0])
    values = np.vstack([values, [[NAN, NAN, 2.0, NAN]]])
    estimate = paired_spread(values, "range")
    assert estimate.n == 30
    assert estimate.ci_low <= estimate.value <= estimate.ci_high


def test_edge_cases() -> None:
    assert paired_spread([[NAN, 1.0]], "range").n == 0
    assert np.isnan(spread_of(np.array([1.0, NAN]), "std"))
    with pytest.raises(ValueError):
        spread_of(np.array([1.0, 2.0]), "variance")


def test_permutation_p() -> None:
    from trustmh.stats.group_spread import paired_permutation_p

    # Identical groups: every permutation ties -> p = 1.
    assert paired_permutation_p([[3, 3, 3], [1, 1, 1], [5, 5, 5]]) == 1.0
    # 20 items where group 2 is always 1 higher: only permutations keeping that order reach the
    # observed range -> p is small.
    rng = np.random.default_rng(1)
    base = rng.normal(size=(20, 1)) * 5
    values = np.hstack([base, base, base + 1.0]) + rng.normal(scale=0.01, size=(20, 3))
    assert paired_permutation_p(values) < 0.01
    # Pure noise: p is not small.
    noise = rng.normal(size=(20, 3))
    assert paired_permutation_p(noise) > 0.05
    assert np.isnan(paired_permutation_p([[1.0, 2.0]]))
