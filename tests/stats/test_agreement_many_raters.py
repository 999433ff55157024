"""Fleiss' kappa and nominal/interval Krippendorff's alpha from per-unit sums, against hand
values, the ``krippendorff`` package and a loop over bootstrap replicates."""

from __future__ import annotations

import krippendorff
import numpy as np
import pytest

from trustmh.stats.agreement import category_counts, fleiss_from_sums, fleiss_kappa, fleiss_unit_sums
from trustmh.stats.bootstrap import resample_counts, resampled_sums
from trustmh.stats.krippendorff import (
    alpha_estimate,
    interval_alpha,
    interval_alpha_from_sums,
    interval_unit_sums,
    nominal_alpha,
    nominal_alpha_from_sums,
    nominal_unit_sums,
)

# Fleiss (1971)'s worked example as reproduced on Wikipedia: 10 items, 14 raters, 5 categories.
FLEISS_TABLE = np.array(
    [
        [0, 0, 0, 0, 14],
        [0, 2, 6, 4, 2],
        [0, 0, 3, 5, 6],
        [0, 3, 9, 2, 0],
        [2, 2, 8, 1, 1],
        [7, 7, 0, 0, 0],
        [3, 2, 6, 3, 0],
        [2, 5, 3, 2, 2],
        [6, 5, 2, 1, 0],
        [0, 2, 2, 3, 7],
    ]
)


def test_fleiss_kappa_worked_example() -> None:
    # P-bar = 0.378, P-bar_e = 0.213 -> kappa = (0.378 - 0.213) / (1 - 0.213) = 0.210
    assert fleiss_kappa(FLEISS_TABLE) == pytest.approx(0.20993, abs=1e-5)


def test_fleiss_kappa_by_hand_small() -> None:
    # 3 items x 3 raters, labels a/b: counts [3,0], [2,1], [0,3].
    # P_i = 1, 1/3, 1 -> P-bar = 7/9; p = (5/9, 4/9) -> P_e = 41/81; kappa = (7/9 - 41/81) / (40/81) = 22/40
    assert fleiss_kappa(np.array([[3, 0], [2, 1], [0, 3]])) == pytest.approx(22 / 40)


def test_fleiss_skips_items_rated_once_and_is_nan_without_variation() -> None:
    table = np.array([[3, 0], [2, 1], [0, 3], [1, 0]])
    assert fleiss_kappa(table) == pytest.approx(22 / 40)
    assert np.isnan(fleiss_kappa(np.array([[2, 0], [3, 0]])))


def test_category_counts_ignore_missing() -> None:
    ratings = np.array([[0, 1, np.nan], [2, 2, 2]])
    assert category_counts(ratings, 3).tolist() == [[1, 1, 0], [0, 0, 3]]


@pytest.mark.parametrize("seed", range(5))
def test_alphas_equal_krippendorff_package(seed: int) -> None:
    rng = np.random.default_rng(seed)
    data = rng.integers(0, 4, size=(3, 40)).astype(float)
    data[rng.random(data.shape) < 0.25] = np.nan
    assert nominal_alpha(data, 4) == pytest.approx(
        krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")
    )
    assert interval_alpha(data) == pytest.approx(
        krippendorff.alpha(reliability_data=data, level_of_measurement="interval")
    )


def test_nominal_alpha_by_hand() -> None:
    # Two coders, 4 units: (0,0), (1,1), (0,1), (1,1). n = 8, n_0 = 3, n_1 = 5.
    # Disagreeing pairs: unit 3 contributes (4 - 2) / 1 = 2 -> alpha = 1 - 7 * 2 / (64 - 9 - 25) = 1 - 14/30
    data = np.array([[0, 1, 0, 1], [0, 1, 1, 1]], dtype=float)
    assert nominal_alpha(data) == pytest.approx(1 - 14 / 30)


def test_bootstrap_replicates_from_sums_equal_a_loop() -> None:
    rng = np.random.default_rng(3)
    data = rng.integers(0, 3, size=(4, 25)).astype(float)
    data[rng.random(data.shape) < 0.2] = np.nan
    counts = resample_counts(25, 40, seed=5)
    fleiss_reps = fleiss_from_sums(resampled_sums(counts, fleiss_unit_sums(category_counts(data.T, 3))))
    nominal_reps = nominal_alpha_from_sums(resampled_sums(counts, nominal_unit_sums(data, 3)))
    interval_reps = interval_alpha_from_sums(resampled_sums(counts, interval_unit_sums(data)))
    for b in range(40):
        resample = np.repeat(data, counts[b].astype(int), axis=1)
        assert fleiss_reps[b] == pytest.approx(fleiss_kappa(category_counts(resample.T, 3)), nan_ok=True)
        assert nominal_reps[b] == pytest.approx(nominal_alpha(resample, 3), nan_ok=True)
        assert interval_reps[b] == pytest.approx(interval_alpha(resample), nan_ok=True)


def test_alpha_estimate_codes_labels_and_brackets_the_value() -> None:
    rng = np.random.default_rng(11)
    data = rng.choice([2.0, 7.0, 9.0], size=(3, 60))
    data[0, :40] = data[1, :40]  # some agreement
    data[rng.random(data.shape) < 0.1] = np.nan
    for level in ("nominal", "interval"):
        estimate = alpha_estimate(data, level, n_boot=300, seed=1)
        expected = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
        assert estimate.value == pytest.approx(expected)
        assert estimate.n == int((np.isfinite(data).sum(axis=0) >= 2).sum())
        assert estimate.ci_low <= estimate.value <= estimate.ci_high
    with pytest.raises(ValueError):
        alpha_estimate(data, "ordinal")
