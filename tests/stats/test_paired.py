"""Paired agreement statistics: hand-computed examples and independent implementations."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pingouin as pg
import pytest

from trustmh.stats.correlation import pearson_rows
from trustmh.stats.paired import icc_c1_a1, pair_moments, summarize


def _pingouin_icc(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    n = len(x)
    long = pd.DataFrame(
        {
            "target": np.tile(np.arange(n), 2),
            "rater": np.repeat(["h", "j"], n),
            "score": np.concatenate([x, y]),
        }
    )
    table = pg.intraclass_corr(long, targets="target", raters="rater", ratings="score").set_index("Type")
    # pingouin < 0.6 names them ICC3 / ICC2 (Shrout & Fleiss), newer versions ICC(C,1) / ICC(A,1).
    c1 = "ICC(C,1)" if "ICC(C,1)" in table.index else "ICC3"
    a1 = "ICC(A,1)" if "ICC(A,1)" in table.index else "ICC2"
    return float(table.loc[c1, "ICC"]), float(table.loc[a1, "ICC"])


def test_hand_computed_example() -> None:
    # x = (1, 2, 3), y = (2, 3, 5): s_x^2 = 1, s_y^2 = 7/3, s_xy = 3/2, mean diff 4/3.
    x = np.array([1.0, 2.0, 3.0])
    y = np.array([2.0, 3.0, 5.0])
    s = summarize(pair_moments(x, y))
    assert s["n"] == 3
    assert s["bias"] == pytest.approx(4 / 3)
    assert s["mse"] == pytest.approx((1 + 1 + 4) / 3)
    assert s["icc_c1"] == pytest.approx(2 * 1.5 / (1 + 7 / 3))  # 0.9
    # MS_R = (1 + 7/3 + 3)/2 = 19/6, MS_E = (1 + 7/3 - 3)/2 = 1/6, MS_C = 3 (4/3)^2 / 2 = 8/3
    ms_r, ms_e, ms_c = 19 / 6, 1 / 6, 8 / 3
    assert s["icc_a1"] == pytest.approx((ms_r - ms_e) / (ms_r + ms_e + 2 / 3 * (ms_c - ms_e)))
    # Population moments: var 2/3 and 14/9, cov 1; CCC = 2 / (2/3 + 14/9 + 16/9) = 0.5
    assert s["ccc"] == pytest.approx(0.5)
    sd_d = np.sqrt(1 / 3)  # differences (1, 1, 2)
    assert s["ba_loa_low"] == pytest.approx(4 / 3 - 1.96 * sd_d)
    assert s["ba_loa_high"] == pytest.approx(4 / 3 + 1.96 * sd_d)


@pytest.mark.parametrize("seed", range(5))
def test_matches_pingouin_and_numpy(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 60))
    truth = rng.normal(3, 1, n)
    x = np.clip(np.round(truth + rng.normal(0, 0.7, n)), 1, 5)
    y = np.clip(np.round(truth + 0.5 + rng.normal(0, 0.7, n)), 1, 5)
    c1, a1 = icc_c1_a1(x, y)
    ref_c1, ref_a1 = _pingouin_icc(x, y)
    assert c1 == pytest.approx(ref_c1, abs=1e-10)
    assert a1 == pytest.approx(ref_a1, abs=1e-10)
    s = summarize(pair_moments(x, y))
    assert s["pearson_r"] == pytest.approx(float(pearson_rows(x, y)), abs=1e-12)
    assert s["mse"] == pytest.approx(np.mean((y - x) ** 2))
    ccc = 2 * np.cov(x, y, ddof=0)[0, 1] / (x.var() + y.var() + (x.mean() - y.mean()) ** 2)
    assert s["ccc"] == pytest.approx(ccc)


def test_vectorised_over_leading_axes_and_nan_pairs_skipped() -> None:
    rng = np.random.default_rng(1)
    x = rng.integers(1, 6, size=(4, 30)).astype(float)
    y = rng.integers(1, 6, size=(4, 30)).astype(float)
    y[0, :3] = np.nan
    s = summarize(pair_moments(x, y))
    assert s["icc_c1"].shape == (4,)
    assert s["n"][0] == 27
    for i in range(4):
        ok = np.isfinite(y[i])
        assert s["icc_a1"][i] == pytest.approx(icc_c1_a1(x[i][ok], y[i][ok])[1])


def test_degenerate_inputs_give_nan() -> None:
    assert np.isnan(icc_c1_a1(np.array([3.0]), np.array([4.0]))[0])
    s = summarize(pair_moments(np.full(5, 3.0), np.full(5, 3.0)))
    assert np.isnan(s["icc_c1"]) and np.isnan(s["pearson_r"])
    assert s["bias"] == 0 and s["mse"] == 0
