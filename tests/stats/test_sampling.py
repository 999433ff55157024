"""The seeded stratified sample (trustmh.stats.sampling)."""

from __future__ import annotations

import pytest

from trustmh.stats.sampling import equal_allocation, floored_allocation, proportional_allocation, stratified_sample


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


def test_floored_allocation_gives_the_floor_then_the_rest_by_share() -> None:
    capacity = {"big": 2000, "mid": 100, "tiny": 12}
    shares = {"big": 0.9, "mid": 0.09, "tiny": 0.01}
    counts = floored_allocation(capacity, shares, 400, floor=30)
    # tiny takes its 12, mid and big 30; the 328 left go 0.9 : 0.09 : 0.01 (tiny is full): 298 : 30
    assert counts == {"big": 328, "mid": 60, "tiny": 12}
    assert sum(counts.values()) == 400


def test_floored_allocation_redistributes_what_a_full_stratum_cannot_take() -> None:
    counts = floored_allocation({"a": 50, "b": 1000}, {"a": 0.9, "b": 0.1}, 300, floor=10)
    assert counts == {"a": 50, "b": 250}


def test_floored_allocation_below_the_floors_is_even_and_never_beyond_the_items() -> None:
    assert floored_allocation({"a": 100, "b": 100, "c": 100}, {"a": 1.0}, 10, floor=30) == {"a": 4, "b": 3, "c": 3}
    assert floored_allocation({"a": 3, "b": 4}, {"a": 0.5, "b": 0.5}, 50, floor=30) == {"a": 3, "b": 4}
