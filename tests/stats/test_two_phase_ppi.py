"""The two-phase PPI rate: hand-computed values, what lambda does, unbiasedness and coverage."""

from __future__ import annotations

import math

import numpy as np
import pytest

from trustmh.stats.two_phase_ppi import LabelledStratum, tuned_lambda, two_phase_rate


def stratum(population: int, judged: list[float], labelled: list[tuple[float, float]]) -> LabelledStratum:
    """``labelled``: (label, judge) pairs, which are also among ``judged``."""
    return LabelledStratum(
        population, np.array(judged), np.array([y for y, _ in labelled]), np.array([f for _, f in labelled])
    )


def test_fixed_lambda_gives_the_difference_estimate_by_hand() -> None:
    a = stratum(1000, [1, 0, 0, 0, 1, 0, 0, 0, 0, 0], [(1, 1), (1, 0), (0, 0), (0, 0)])  # the judge missed one
    b = stratum(3000, [0] * 20, [(0, 0), (0, 0), (1, 0)])
    for lam in (0.0, 0.5, 1.0):
        expected_a = lam * 0.2 + np.mean([1 - lam, 1, 0, 0])
        expected_b = lam * 0.0 + 1 / 3
        estimate = two_phase_rate([a, b], lam=lam)
        assert estimate.value == pytest.approx(0.25 * expected_a + 0.75 * expected_b)
        assert estimate.ci[0] <= estimate.value <= estimate.ci[1]
        assert (estimate.judged, estimate.labelled, estimate.lam) == (30, 7, lam)


def test_lambda_zero_is_the_stratified_mean_of_the_labels() -> None:
    a = stratum(1000, [1, 1, 1, 1, 0, 0], [(0, 1), (0, 1), (1, 0)])  # a judge that says the opposite
    b = stratum(1000, [0, 0, 0, 0], [(1, 0), (0, 0)])
    estimate = two_phase_rate([a, b], lam=0.0)
    assert estimate.value == pytest.approx(0.5 * (1 / 3) + 0.5 * 0.5)


def test_known_strata_are_added_exactly() -> None:
    a = stratum(1000, [1, 0, 0, 0], [(1, 1), (0, 0)])
    alone = two_phase_rate([a], lam=1.0)
    with_known = two_phase_rate([a], known=[(1000, 100)], lam=1.0)
    assert with_known.value == pytest.approx(0.05 + 0.5 * alone.value)
    assert with_known.ci[0] == pytest.approx(0.05 + 0.5 * alone.ci[0])
    assert with_known.ci[1] == pytest.approx(0.05 + 0.5 * alone.ci[1])


def test_every_unit_labelled_is_a_known_rate() -> None:
    whole = stratum(4, [1, 0, 0, 0], [(1, 1), (1, 0), (0, 0), (0, 0)])
    estimate = two_phase_rate([whole])
    assert estimate.value == 0.5 and estimate.ci == (0.5, 0.5)


def test_a_stratum_with_fewer_than_two_labels_is_not_estimable() -> None:
    estimate = two_phase_rate([stratum(100, [1, 0, 0], [(1, 1)]), stratum(100, [0, 0], [(0, 0), (0, 0)])])
    assert math.isnan(estimate.value) and all(math.isnan(v) for v in estimate.ci)
    assert (estimate.judged, estimate.labelled) == (5, 3)


def test_lambda_follows_how_well_the_judge_tracks_the_labels() -> None:
    rng = np.random.default_rng(3)
    truth = (rng.random(400) < 0.3).astype(float)
    faithful = stratum(10_000, list(truth) + [0.0] * 400, list(zip(truth[:200], truth[:200], strict=True)))
    noise = (rng.random(400) < 0.3).astype(float)
    unrelated = stratum(10_000, list(noise) + [0.0] * 400, list(zip(truth[:200], noise[:200], strict=True)))
    shares = np.array([1.0])
    assert tuned_lambda([faithful], shares) == pytest.approx(1.0)
    assert tuned_lambda([unrelated], shares) < 0.2


def draw(rng: np.random.Generator, truth_rates: list[float], sensitivity: float, false_positive: float) -> tuple:
    """Two strata of 20,000; 1,000 judged in each, 150 of those labelled; the judge errs."""
    strata, true_total = [], 0.0
    for rate in truth_rates:
        y = (rng.random(20_000) < rate).astype(float)
        true_total += y.sum()
        f = np.where(y == 1, rng.random(20_000) < sensitivity, rng.random(20_000) < false_positive).astype(float)
        judged = rng.choice(20_000, 1000, replace=False)
        labelled = judged[:150]
        strata.append(LabelledStratum(20_000, f[judged], y[labelled], f[labelled]))
    return strata, true_total / 40_000


def test_the_correction_removes_the_judge_bias_and_its_interval_covers() -> None:
    rng = np.random.default_rng(2026)
    errors, judge_errors, covered = [], [], 0
    for _ in range(300):
        strata, truth = draw(rng, [0.2, 0.03], sensitivity=0.7, false_positive=0.02)
        estimate = two_phase_rate(strata)
        errors.append(estimate.value - truth)
        judge_errors.append(np.mean([s.judged.mean() for s in strata]) - truth)
        covered += estimate.ci[0] <= truth <= estimate.ci[1]
    assert np.mean(judge_errors) < -0.012  # the judge alone: 0.5 (0.156 - 0.2) + 0.5 (0.0404 - 0.03) = -0.017
    assert abs(np.mean(errors)) < 0.003  # the labels remove it
    assert covered / 300 >= 0.93


def test_nothing_found_is_bounded_by_the_labels_not_by_every_judged_unit() -> None:
    # the judge found nothing in 2,000 and 100 labels agree: the rate is bounded as 0 of 100 is
    estimate = two_phase_rate([stratum(1_000_000, [0.0] * 2000, [(0.0, 0.0)] * 100)])
    assert estimate.value == 0.0 and estimate.ci[0] == 0.0
    assert estimate.ci[1] == pytest.approx(1 - 0.025 ** (1 / 100))
