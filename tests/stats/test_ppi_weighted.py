"""PPI++ with inverse-probability weights (trustmh.stats.ppi.ppi_mean_weighted): hand-computed
values, its limiting cases, and unbiasedness over a stratified design."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import t as student_t

from trustmh.stats.ppi import ppi_mean_weighted
from trustmh.stats.sampling import stratified_sample
from trustmh.stats.stratified_score import stratified_proportion_score_ci

Z95 = 1.959963984540054


def test_hand_computed_two_strata_labels_only() -> None:
    # stratum A: 2 of 4 items drawn (pi 0.5, w 2), labels 1, 3; stratum B: 2 of 8 (pi 0.25, w 4), labels 0, 2
    y, f, w = [1.0, 3.0, 0.0, 2.0], [0.0, 0.0, 0.0, 0.0], [2.0, 2.0, 4.0, 4.0]
    result = ppi_mean_weighted(y, f, w, np.zeros(12), lam=0.0)
    # shares 4/12 and 8/12; stratum means 2 and 1 -> 1/3 * 2 + 2/3 * 1
    assert result.estimate == pytest.approx(4 / 3)
    # se^2 = (1/3)^2 (1 - .5) s_A^2 / 2 + (2/3)^2 (1 - .25) s_B^2 / 2, s_A^2 = s_B^2 = 2
    part_a, part_b = (1 / 9) * 0.5 * 2 / 2, (4 / 9) * 0.75 * 2 / 2
    # t quantile on Satterthwaite's degrees of freedom: each stratum's variance rests on 1 df
    freedom = (part_a + part_b) ** 2 / (part_a**2 / 1 + part_b**2 / 1)
    half = student_t.ppf(0.975, freedom) * np.sqrt(part_a + part_b)
    assert result.ci == pytest.approx((4 / 3 - half, 4 / 3 + half))
    assert result.human_only.value == pytest.approx(4 / 3)
    assert (result.n_labelled, result.n_unlabelled) == (4, 8)


def test_lambda_one_uses_the_judge_mean_of_every_item() -> None:
    y, f, w = np.array([2.0, 3.0, 4.0, 5.0]), np.array([3.0, 4.0, 5.0, 6.0]), np.full(4, 2.0)
    population = np.array([3.0, 4.0, 5.0, 6.0, 1.0, 1.0, 1.0, 1.0])
    result = ppi_mean_weighted(y, f, w, population, lam=1.0)
    # the judge is always 1 too high: mean(f_U) - 1, and the rectifier has no variance
    assert result.estimate == pytest.approx(population.mean() - 1)
    assert result.ci == pytest.approx((result.estimate, result.estimate))


def test_a_census_has_no_sampling_error() -> None:
    rng = np.random.default_rng(3)
    y, f = rng.normal(size=20), rng.normal(size=20)
    result = ppi_mean_weighted(y, f, np.ones(20), f)
    assert result.estimate == pytest.approx(y.mean())
    assert result.ci[1] - result.ci[0] == pytest.approx(0.0)


def test_tuned_lambda_follows_a_judge_that_tracks_the_labels() -> None:
    rng = np.random.default_rng(5)
    f = rng.normal(size=400)
    y = f + rng.normal(0, 0.1, 400)
    tuned = ppi_mean_weighted(y[:100], f[:100], np.full(100, 4.0), f)
    assert tuned.lam > 0.9
    assert tuned.effective_n > 5 * tuned.n_labelled


def test_stratified_draws_are_unbiased_where_the_unweighted_mean_is_not() -> None:
    rng = np.random.default_rng(11)
    flagged = rng.random(2000) < 0.1
    judge = flagged.astype(float)
    truth = (rng.random(2000) < np.where(flagged, 0.8, 0.05)).astype(float)
    strata = ["flagged" if x else "other" for x in flagged]
    estimates, naive = [], []
    for seed in range(200):
        draw = stratified_sample(strata, 200, seed)
        chosen = np.array(draw.indices)
        result = ppi_mean_weighted(truth[chosen], judge[chosen], 1 / np.array(draw.inclusion), judge)
        estimates.append(result.estimate)
        naive.append(truth[chosen].mean())
    assert np.mean(estimates) == pytest.approx(truth.mean(), abs=0.004)
    assert np.mean(naive) > truth.mean() + 0.15  # half the sample is flagged items


@pytest.mark.parametrize(
    ("weights", "message"), [([0.5, 2.0], "at least 1"), ([2.0, np.inf], "finite"), ([2.0], "paired")]
)
def test_bad_weights_are_refused(weights: list[float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ppi_mean_weighted([1.0, 0.0], [1.0, 0.0], weights, [1.0, 0.0, 1.0])


def test_a_stratified_rate_gets_the_stratified_score_interval() -> None:
    # the judge's verdict is the stratum, so lambda is 0 and the estimate a stratified proportion
    y = np.array([1.0] * 7 + [0.0] * 3 + [1.0] * 2 + [0.0] * 28)
    f = np.array([1.0] * 10 + [0.0] * 30)
    w = np.array([2.0] * 10 + [80 / 30] * 30)
    population = np.array([1.0] * 20 + [0.0] * 80)
    result = ppi_mean_weighted(y, f, w, population)
    expected = stratified_proportion_score_ci([7, 2], [10, 30], [0.2, 0.8], [0.5, 30 / 80], Z95)
    assert (result.lam, result.interval) == (0.0, "score")
    assert result.estimate == pytest.approx(0.2 * 0.7 + 0.8 * 2 / 30)
    assert result.ci == pytest.approx(expected) and result.human_only.ci == pytest.approx(expected)
    # the same labels as shares of raters (not 0/1) fall back to the t interval
    assert ppi_mean_weighted(np.where(y == 1, 0.9, 0.1), f, w, population).interval == "t"
