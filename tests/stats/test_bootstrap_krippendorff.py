"""Resampling counts, vectorised bootstrap sums and Krippendorff's alpha."""

from __future__ import annotations

import krippendorff
import numpy as np
import pytest

from trustmh.stats.bootstrap import percentile_ci, resample_counts, resampled_sums
from trustmh.stats.krippendorff import interval_alpha
from trustmh.stats.paired import pair_moments, summarize


def test_counts_sum_to_units_and_are_reproducible() -> None:
    counts = resample_counts(50, 200, seed=3)
    assert counts.shape == (200, 50)
    assert (counts.sum(axis=1) == 50).all()
    assert np.array_equal(counts, resample_counts(50, 200, seed=3))
    # Each unit is drawn once per replicate on average.
    assert counts.mean() == pytest.approx(1.0)


def test_resampled_sums_equal_a_loop_over_replicates() -> None:
    rng = np.random.default_rng(0)
    clusters = [rng.integers(1, 6, size=(int(rng.integers(1, 5)), 2)).astype(float) for _ in range(30)]
    unit = np.stack([pair_moments(c[:, 0], c[:, 1]) for c in clusters])
    counts = resample_counts(30, 50, seed=9)
    fast = summarize(resampled_sums(counts, unit))["icc_c1"]
    for b in range(50):
        sample = np.concatenate([np.repeat(c, int(k), axis=0) for c, k in zip(clusters, counts[b], strict=True) if k])
        slow = summarize(pair_moments(sample[:, 0], sample[:, 1]))["icc_c1"]
        assert fast[b] == pytest.approx(float(slow), nan_ok=True)


def test_percentile_ci_ignores_nan() -> None:
    reps = np.column_stack([np.arange(101.0), np.full(101, np.nan)])
    reps[0, 0] = np.nan
    lo, hi = percentile_ci(reps)
    assert lo[0] == pytest.approx(np.quantile(np.arange(1.0, 101.0), 0.025))
    assert hi[0] == pytest.approx(np.quantile(np.arange(1.0, 101.0), 0.975))
    assert np.isnan(lo[1]) and np.isnan(hi[1])


@pytest.mark.parametrize("seed", range(4))
def test_alpha_matches_krippendorff_package(seed: int) -> None:
    rng = np.random.default_rng(seed)
    data = rng.integers(1, 6, size=(5, 80)).astype(float)
    data[:, :20] += rng.integers(0, 2, size=(5, 20))
    data[rng.random(data.shape) < 0.15] = np.nan
    data[:, 0] = np.nan
    data[1:, 1] = np.nan  # a unit with one value is not pairable
    expected = krippendorff.alpha(reliability_data=data, level_of_measurement="interval")
    assert interval_alpha(data) == pytest.approx(expected, abs=1e-10)


def test_alpha_hand_example() -> None:
    # Two coders, two units: (1, 1) and (3, 5). n = 4, D_o = (0 + 2*4)/4 = 2,
    # all pairs: values 1, 1, 3, 5 -> sum_{i!=j} = 2*4*36 - 2*100 = 88, D_e = 88/12.
    data = np.array([[1.0, 3.0], [1.0, 5.0]])
    assert interval_alpha(data) == pytest.approx(1 - 2 / (88 / 12))
    assert np.isnan(interval_alpha(np.array([[1.0, np.nan], [np.nan, 2.0]])))
