"""Panel statistics against hand-computed values and the `krippendorff` package."""

from __future__ import annotations

import krippendorff
import numpy as np
import pytest
from scipy.stats import spearmanr

from trustmh.stats.correlation import spearman_estimate
from trustmh.stats.judge_probes import UNDECIDED, changed_share, panel_mean, strict_majority
from trustmh.stats.krippendorff import alpha_estimate, interval_alpha, nominal_alpha

NAN = np.nan


def test_mean_and_strict_majority():
    assert panel_mean([4, 5, None]) == 4.5
    assert panel_mean([None, None]) is None
    assert strict_majority(["refused", "refused", "complied"]) == "refused"
    assert strict_majority(["refused", "complied"]) is UNDECIDED  # 1 of 2 is no majority
    assert strict_majority(["a", "b", "c"]) is UNDECIDED
    assert strict_majority([1, None, 1]) == 1  # an unparsed verdict casts no vote
    assert strict_majority([None, None]) is None


def test_nominal_alpha_matches_package():
    data = np.array(
        [[1, 2, 3, 3, 2, 1, 4, 1, 2, NAN], [1, 2, 3, 3, 2, 2, 4, 1, 2, 5], [NAN, 3, 3, 3, 2, 3, 4, 2, 2, 5]]
    )
    expected = krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")
    assert nominal_alpha(data) == pytest.approx(expected)
    estimate = alpha_estimate(data, "nominal")
    assert estimate.value == pytest.approx(expected) and estimate.n == 10
    assert estimate.ci_low <= estimate.value <= estimate.ci_high


def test_interval_alpha_estimate_matches_package():
    data = np.array([[1, 2, 4, 5, 3, 2, NAN], [2, 2, 5, 4, 3, 1, 3], [1, 3, 4, 5, NAN, 2, NAN]])
    expected = krippendorff.alpha(reliability_data=data, level_of_measurement="interval")
    estimate = alpha_estimate(data, "interval")
    assert estimate.value == pytest.approx(expected) == pytest.approx(interval_alpha(data))
    assert estimate.n == 6 and estimate.ci_low < estimate.ci_high  # the last item has one rating: not pairable


def test_hand_computed_nominal_alpha():
    # 2 judges, 4 items: agree on 3 (a, a, b), disagree on one (a vs b).
    # values: a×5, b×3, n = 8; D_o = (2/1)/8 = 0.25 (one unit with m=2, 2²-(1+1) = 2);
    # D_e = (64 - 25 - 9)/(8*7) = 30/56; alpha = 1 - 0.25*56/30 = 1 - 14/30
    data = np.array([[0, 0, 1, 0], [0, 0, 1, 1]], dtype=float)
    assert nominal_alpha(data) == pytest.approx(1 - 14 / 30)


def test_alpha_needs_two_ratings_per_item():
    assert alpha_estimate(np.array([[1.0, NAN], [NAN, 2.0]]), "interval").n == 0


def test_spearman_by_hand_and_scipy():
    # ranks x: 1 2 3 4 5, y: 2 1 4 3 5 -> d² = 1+1+1+1+0 = 4; rho = 1 - 6*4/(5*24) = 0.8
    estimate = spearman_estimate([1, 2, 3, 4, 5], [20, 10, 40, 30, 50])
    assert estimate.value == pytest.approx(0.8) and estimate.n == 5
    x, y = [3, 1, 4, 1, 5, 9, 2, 6], [2, 7, 1, 8, 2, 8, 1, 8]  # ties on both sides
    assert spearman_estimate(x, y).value == pytest.approx(spearmanr(x, y).statistic)
    assert np.isnan(spearman_estimate([1, 2], [3, 4]).value)


def test_changed_share_by_hand():
    first = ["refused", "complied", 3, None, 4]
    repeats = [["refused", "refused"], ["complied", "refused"], [4], [3], [None]]
    # counted units: 0 (same), 1 (changed), 2 (changed); 3 and 4 hold an unparsed verdict
    estimate = changed_share(first, repeats)
    assert estimate.value == pytest.approx(2 / 3) and estimate.n == 3
    assert 0 < estimate.ci_low < 2 / 3 < estimate.ci_high < 1
