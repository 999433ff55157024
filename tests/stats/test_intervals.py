import numpy as np
import pytest
from statsmodels.stats.proportion import proportion_confint

from trustmh.stats import bootstrap_mean_ci, mean_estimate, proportion_estimate, wilson_interval
from trustmh.stats.correlation import pearson_estimate, pearson_rows


@pytest.mark.parametrize("k,n", [(0, 10), (3, 10), (10, 10), (57, 203), (1, 1)])
def test_wilson_matches_statsmodels(k, n):
    lo, hi = wilson_interval(k, n)
    ref_lo, ref_hi = proportion_confint(k, n, method="wilson")
    assert lo == pytest.approx(ref_lo, abs=1e-9)
    assert hi == pytest.approx(ref_hi, abs=1e-9)


def test_wilson_empty_is_nan():
    assert all(np.isnan(wilson_interval(0, 0)))


def test_proportion_ignores_nan_and_counts_n():
    estimate = proportion_estimate([1, 0, np.nan, 1, 1])
    assert estimate.value == 0.75 and estimate.n == 4
    assert estimate.ci_low < 0.75 < estimate.ci_high


def test_bootstrap_mean_ci_covers_mean_and_is_seeded():
    values = np.random.default_rng(0).normal(3.0, 1.0, size=200)
    first, second = bootstrap_mean_ci(values), bootstrap_mean_ci(values)
    assert first == second
    assert first[0] < values.mean() < first[1]
    assert first[1] - first[0] == pytest.approx(2 * 1.96 / np.sqrt(200), rel=0.25)


def test_mean_estimate_of_nothing():
    estimate = mean_estimate([np.nan])
    assert estimate.n == 0 and np.isnan(estimate.value)


def test_pearson_matches_numpy_and_handles_constant():
    rng = np.random.default_rng(1)
    x, y = rng.normal(size=50), rng.normal(size=50)
    assert float(pearson_rows(x, y)) == pytest.approx(np.corrcoef(x, y)[0, 1])
    assert np.isnan(pearson_rows(np.ones(5), np.arange(5.0)))
    estimate = pearson_estimate(x, x * 2 + 1)
    assert estimate.value == pytest.approx(1.0) and estimate.n == 50


def test_bootstrap_in_chunks_gives_the_numbers_of_one_draw_and_bounds_what_is_held(monkeypatch):
    """The replicates are drawn in chunks of at most BOOTSTRAP_CHUNK_ELEMENTS resampled rows (the
    temporaries of inspect's repeated metric computations stay small) with the numbers of one draw."""
    import trustmh.stats.intervals as intervals

    rows = np.random.default_rng(3).integers(0, 4, size=(1_999, 2)).astype(float)  # odd n on purpose
    held: list[int] = []

    def pooled(resampled: np.ndarray) -> np.ndarray:
        held.append(resampled.shape[0] * resampled.shape[1])
        return resampled[..., 0].sum(axis=-1) / np.maximum(resampled[..., 1].sum(axis=-1), 1)

    chunked = intervals.bootstrap_statistic_ci(rows, pooled)
    assert len(held) > 1 and max(held) <= intervals.BOOTSTRAP_CHUNK_ELEMENTS
    monkeypatch.setattr(intervals, "BOOTSTRAP_CHUNK_ELEMENTS", 10**9)  # one draw of all replicates
    held.clear()
    assert intervals.bootstrap_statistic_ci(rows, pooled) == chunked
    assert held == [intervals.DEFAULT_BOOTSTRAP * 1_999]
