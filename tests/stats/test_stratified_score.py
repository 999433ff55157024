"""The stratified score interval of a proportion (trustmh.stats.stratified_score): Wilson's closed
form for one stratum, the defining equation and constrained maximum for several, and coverage
where the Wald interval of the same design misses high."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import minimize

from trustmh.stats.stratified_score import proportions_under, stratified_proportion_score_ci

Z95 = 1.959963984540054


def wilson(successes: float, n: float, z: float) -> tuple[float, float]:
    """Wilson's interval in its textbook closed form."""
    p, k = successes / n, z * z / n
    centre = (p + k / 2) / (1 + k)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + k)
    return centre - half, centre + half


def test_one_stratum_is_wilsons_interval_on_the_design_sample_size() -> None:
    # (p - t)^2 = z^2 (1 - pi) t (1 - t) / (n - 1): Wilson's equation with n' = (n - 1) / (1 - pi)
    low, high = stratified_proportion_score_ci([6], [150], [1.0], [0.04], Z95)
    (wilson_low, wilson_high) = wilson(6 * 149 / 0.96 / 150, 149 / 0.96, Z95)
    assert (low, high) == pytest.approx((wilson_low, wilson_high), abs=1e-9)


def test_no_positives_gives_a_lower_end_of_zero_and_a_census_no_width() -> None:
    low, high = stratified_proportion_score_ci([0, 0], [50, 20], [0.9, 0.1], [0.01, 0.5], Z95)
    assert low == 0.0 and high > 0.01
    assert stratified_proportion_score_ci([2, 3], [10, 20], [0.5, 0.5], [1.0, 1.0], Z95) == pytest.approx(
        (0.175, 0.175)
    )


def test_the_ends_solve_the_score_equation_at_the_constrained_maximum() -> None:
    x, n, w, pi = np.array([5.0, 110.0]), np.array([150.0, 150.0]), np.array([0.92, 0.08]), np.array([0.04, 0.49])
    theta = float((w * x / n).sum())
    low, high = stratified_proportion_score_ci(x, n, w, pi, Z95)
    assert low < theta < high
    for end in (low, high):
        p = proportions_under(x, n, w, end)
        assert float((w * p).sum()) == pytest.approx(end, abs=1e-9)
        variance = float((w**2 * (1 - pi) * p * (1 - p) / (n - 1)).sum())
        assert (theta - end) ** 2 == pytest.approx(Z95**2 * variance, rel=1e-6)
        # p is the binomial maximum likelihood under sum(w p) = end, found here by a general optimiser
        found = minimize(
            lambda q: -float((x * np.log(q) + (n - x) * np.log(1 - q)).sum()),
            np.full(2, end),
            constraints=[{"type": "eq", "fun": lambda q, end=end: float((w * q).sum()) - end}],
            bounds=[(1e-9, 1 - 1e-9)] * 2,
            method="SLSQP",
            options={"ftol": 1e-12},
        )
        assert found.x == pytest.approx(p, abs=1e-4)


def test_covers_a_rare_event_where_the_wald_interval_misses_high() -> None:
    # 4,000 items: 300 flagged (73% positive), 3,700 not (3.7% positive); 150 labels drawn from each
    rng = np.random.default_rng(37)
    sizes, positives, n = np.array([300, 3700]), np.array([220, 137]), np.array([150, 150])
    shares, pi = sizes / sizes.sum(), n / sizes
    truth = float((positives / sizes * shares).sum())
    draws = 600
    score_high = wald_high = score_hits = 0
    for _ in range(draws):
        x = rng.hypergeometric(positives, sizes - positives, n).astype(float)
        low, high = stratified_proportion_score_ci(x, n, shares, pi, Z95)
        score_hits += low <= truth <= high
        score_high += truth > high
        p = x / n
        estimate = float((shares * p).sum())
        wald_se = np.sqrt(float((shares**2 * (1 - pi) * p * (1 - p) / (n - 1)).sum()))
        wald_high += truth > estimate + Z95 * wald_se
    assert score_hits / draws >= 0.93
    assert score_high / draws < 0.04  # nominal 2.5% each side
    assert wald_high / draws > 0.06  # the skew the score interval corrects
