"""The seeded stratified sample (trustmh.stats.sampling)."""

from __future__ import annotations

import pytest

from trustmh.stats.sampling import equal_allocation, proportional_allocation, stratified_sample


def test_equal_allocation_gives_a_small_stratum_whole_and_shares_the_rest() -> None:
    assert equal_allocation({"flagged": 3, "other": 100}, 20) == {"flagged": 3, "other": 17}
    assert equal_allocation({"a": 50, "b": 50, "c": 50}, 10) == {"a": 4, "b": 3, "c": 3}


def test_proportional_allocation_rounds_by_largest_remainder() -> None:
    assert proportional_allocation({"a": 10, "b": 30}, 7) == {"a": 2, "b": 5}


def test_inclusion_probability_is_drawn_over_stratum_size() -> None:
    strata = ["flagged"] * 10 + ["other"] * 90
    draw = stratified_sample(strata, 20, seed=1)
    assert len(draw.indices) == 20
    by_stratum = {strata[i]: p for i, p in zip(draw.indices, draw.inclusion, strict=True)}
    assert by_stratum == {"flagged": pytest.approx(1.0), "other": pytest.approx(10 / 90)}
    assert draw.allocation == {"flagged": (10, 10), "other": (10, 90)}


def test_same_seed_same_sample_and_another_seed_another() -> None:
    strata = ["x"] * 50
    assert stratified_sample(strata, 5, 3) == stratified_sample(strata, 5, 3)
    assert stratified_sample(strata, 5, 3).indices != stratified_sample(strata, 5, 4).indices


def test_a_sample_larger_than_the_population_takes_every_item() -> None:
    draw = stratified_sample(["a", "b", "b"], 10, 0)
    assert draw.indices == [0, 1, 2] and draw.inclusion == [1.0, 1.0, 1.0]
