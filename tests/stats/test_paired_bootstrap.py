"""Paired bootstrap of a headline difference over shared items, on hand-built data."""

from __future__ import annotations

import math

import numpy as np
import pytest

from trustmh.stats import wilson_interval
from trustmh.stats.paired_bootstrap import paired_bootstrap_difference


def test_point_difference_is_the_mean_over_tasks_of_shared_item_differences() -> None:
    # task 1: item 4 is unparsed for A (NaN), so 3 shared items, d = (1, 0, 0); task 2: d = (1, 0)
    tasks = [([1.0, 0.0, 1.0, math.nan], [0.0, 0.0, 1.0, 1.0]), ([1.0, 1.0], [0.0, 1.0])]
    result = paired_bootstrap_difference(tasks, n_boot=200, seed=1)
    assert result is not None
    assert result.difference == pytest.approx((1 / 3 + 1 / 2) / 2)
    assert result.n == 5
    assert result.ci_low <= result.difference <= result.ci_high


def test_pairing_separates_models_whose_independent_cis_overlap() -> None:
    # 40 items: B is right on 16, A on the same 16 and 8 more. Wilson CIs of 0.6 and 0.4 overlap,
    # but A is never worse on any item: the paired interval of the difference stays above 0.
    b = np.array([1.0] * 16 + [0.0] * 24)
    a = b.copy()
    a[16:24] = 1.0
    a_low, a_high = wilson_interval(24, 40)
    b_low, b_high = wilson_interval(16, 40)
    assert a_low < b_high  # overlapping CIs: a CI-overlap rule would tie them
    result = paired_bootstrap_difference([(a, b)])
    assert result is not None and result.separated and result.ci_low > 0
    assert result.difference == pytest.approx(0.2)


def test_equal_scores_on_different_items_are_not_separated() -> None:
    a = np.array([1.0] * 20 + [0.0] * 20)
    b = np.roll(a, 10)  # right on 20 items too, half of them different ones
    result = paired_bootstrap_difference([(a, b)])
    assert result is not None and result.difference == 0.0 and not result.separated
    assert result.ci_low < 0 < result.ci_high


def test_a_constant_difference_has_a_collapsed_interval() -> None:
    result = paired_bootstrap_difference([([0.9, 0.8, 0.7], [0.4, 0.3, 0.2])], n_boot=50)
    assert result is not None
    assert result.ci_low == pytest.approx(0.5) and result.ci_high == pytest.approx(0.5) and result.separated


def test_reproducible_and_direction_is_antisymmetric() -> None:
    rng = np.random.default_rng(5)
    a, b = rng.integers(0, 2, 60).astype(float), rng.integers(0, 2, 60).astype(float)
    one = paired_bootstrap_difference([(a, b)], seed=7)
    again = paired_bootstrap_difference([(a, b)], seed=7)
    flipped = paired_bootstrap_difference([(b, a)], seed=7)
    assert one == again and one is not None and flipped is not None
    assert flipped.difference == pytest.approx(-one.difference)
    assert flipped.ci_low == pytest.approx(-one.ci_high) and flipped.ci_high == pytest.approx(-one.ci_low)


def test_undefined_without_shared_items() -> None:
    assert paired_bootstrap_difference([]) is None
    assert paired_bootstrap_difference([([1.0, 0.0], [1.0, 1.0]), ([math.nan], [1.0])]) is None
    with pytest.raises(ValueError, match="differ in length"):
        paired_bootstrap_difference([([1.0, 0.0], [1.0])])
