"""The stratified estimate: hand-computed values, certainty strata, and coverage on known populations."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import beta

from trustmh.stats.survey import Stratum, stratified_proportion


def test_one_sampled_stratum_is_its_clopper_pearson_interval_when_the_sample_is_small() -> None:
    # 1 million units, 1000 judged, 10 positive: the fpc is ~1, so n* = (n - 1) / (1 - f) ~ n
    estimate = stratified_proportion([Stratum(1_000_000, 1000, 10)])
    assert estimate.value == pytest.approx(0.01)
    assert estimate.n == 1000
    # smoothed variance: p~ = 10.5 / 1001; n* = q (1 - q) / V
    p_smooth = 10.5 / 1001
    variance = (1 - 1000 / 1_000_000) * p_smooth * (1 - p_smooth) / 999
    n_star = min(0.01 * 0.99 / variance, 1000)
    assert estimate.ci_low == pytest.approx(beta.ppf(0.025, n_star * 0.01, n_star * 0.99 + 1))
    assert estimate.ci_high == pytest.approx(beta.ppf(0.975, n_star * 0.01 + 1, n_star * 0.99))


def test_certainty_strata_are_exact_and_shift_the_interval() -> None:
    whole = Stratum(1000, 1000, 50)  # judged in full: 50 positives, known
    rest = Stratum(9000, 900, 9)
    estimate = stratified_proportion([whole, rest])
    assert estimate.value == pytest.approx((50 + 9000 * 0.01) / 10_000)
    sampled_only = stratified_proportion([rest])
    assert estimate.ci_low == pytest.approx(0.005 + 0.9 * sampled_only.ci_low)
    assert estimate.ci_high == pytest.approx(0.005 + 0.9 * sampled_only.ci_high)


def test_everything_judged_is_known_exactly() -> None:
    estimate = stratified_proportion([Stratum(10, 10, 3), Stratum(5, 5, 0)])
    assert (estimate.value, estimate.ci_low, estimate.ci_high) == (0.2, 0.2, 0.2)


def test_no_positive_judged_still_has_an_upper_bound() -> None:
    estimate = stratified_proportion([Stratum(100_000, 2000, 0)])
    assert estimate.value == 0 and estimate.ci_low == 0
    assert 0.0005 < estimate.ci_high < 0.01  # a rule-of-three order of magnitude: 3 / 2000 = 0.0015


def test_a_stratum_nobody_judged_makes_the_rate_inestimable() -> None:
    estimate = stratified_proportion([Stratum(100, 10, 1), Stratum(50, 0, 0)])
    assert math.isnan(estimate.value) and estimate.n == 10


def test_impossible_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="positives <= sampled"):
        Stratum(10, 5, 6)


@pytest.mark.parametrize("rate", [0.002, 0.05])
def test_coverage_on_a_known_population(rate: float) -> None:
    """95% intervals over 300 seeded samples cover the true rate at least ~93% of the time."""
    rng = np.random.default_rng(7)
    sizes, n = (5_000, 95_000), (500, 1_500)
    positives = (int(rng.binomial(sizes[0], min(rate * 20, 0.5))), int(rng.binomial(sizes[1], rate)))
    truth = sum(positives) / sum(sizes)
    covered = 0
    for _ in range(300):
        strata = [
            Stratum(sizes[h], n[h], int(rng.hypergeometric(positives[h], sizes[h] - positives[h], n[h])))
            for h in range(2)
        ]
        estimate = stratified_proportion(strata)
        covered += estimate.ci_low <= truth <= estimate.ci_high
    assert covered / 300 >= 0.93
