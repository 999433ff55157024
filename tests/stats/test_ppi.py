"""PPI++ mean (trustmh.stats.ppi): hand-computed values, its limiting cases, and ppi_py's numbers."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from trustmh.stats.ppi import classical_mean, power_tuning, ppi_mean

REFERENCE = Path(__file__).with_name("data") / "ppi_reference.json"
Z95 = 1.959963984540054


def test_hand_computed_plain_ppi() -> None:
    # labels 1,2,3,4; judge 2,3,4,5 on them (always +1); unlabelled judge scores 3,5
    result = ppi_mean([1, 2, 3, 4], [2, 3, 4, 5], [3, 5], lam=1.0)
    # estimate = mean(unlabelled) + mean(Y - f) = 4 - 1
    assert result.estimate == pytest.approx(3.0)
    # se^2 = var0(unlabelled)/N + var0(Y - f)/n = 1/2 + 0
    assert result.ci == pytest.approx((3.0 - Z95 * np.sqrt(0.5), 3.0 + Z95 * np.sqrt(0.5)))
    assert (result.n_labelled, result.n_unlabelled, result.lam) == (4, 2, 1.0)
    assert result.human_only.value == pytest.approx(2.5)
    assert result.judge_only.value == pytest.approx(np.mean([2, 3, 4, 5, 3, 5]))
    assert result.judge_only.n == 6


def test_hand_computed_lambda() -> None:
    y, f, u = np.array([1.0, 2, 3, 4]), np.array([2.0, 3, 4, 5]), np.array([3.0, 5])
    # cov (divide by n) = 1.25; pooled judge var (ddof 1) of 2,3,4,5,3,5 = 1.466..; 1 + n/N = 3
    expected = 1.25 / (3 * np.var([2, 3, 4, 5, 3, 5], ddof=1))
    assert power_tuning(y, f, u) == pytest.approx(expected)
    tuned = ppi_mean(y, f, u)
    assert tuned.lam == pytest.approx(expected)
    assert tuned.estimate == pytest.approx(expected * 4 + np.mean(y - expected * f))


def test_lambda_zero_is_the_classical_mean_of_the_labels() -> None:
    rng = np.random.default_rng(1)
    y, f, u = rng.normal(size=30), rng.normal(size=30), rng.normal(size=300)
    result = ppi_mean(y, f, u, lam=0.0)
    classical = classical_mean(y)
    assert result.estimate == pytest.approx(classical.value)
    assert result.ci == pytest.approx(classical.ci)
    assert result.effective_n == pytest.approx(30)
    assert result.effective_n_gained == pytest.approx(0)


def test_a_good_biased_judge_is_corrected_and_narrows_the_interval() -> None:
    rng = np.random.default_rng(7)
    truth = rng.normal(3.0, 1.0, 5000)
    judge = truth + 0.8 + rng.normal(0, 0.3, 5000)  # tracks the humans, 0.8 too generous
    labelled = rng.choice(5000, 200, replace=False)
    mask = np.zeros(5000, bool)
    mask[labelled] = True
    result = ppi_mean(truth[mask], judge[mask], judge[~mask])
    assert result.judge_only.ci[0] > truth.mean()  # the judge's own CI misses the human mean
    assert result.ci[0] <= truth.mean() <= result.ci[1]
    assert result.ci[1] - result.ci[0] < result.human_only.ci[1] - result.human_only.ci[0]
    assert result.effective_n_gained > 200  # the labels count several times over
    assert 0.5 < result.lam <= 1.0


def test_an_uninformative_judge_falls_back_to_the_labels() -> None:
    rng = np.random.default_rng(3)
    y = rng.normal(size=80)
    result = ppi_mean(y, -y, rng.normal(size=400))  # anti-correlated: lambda clipped to 0
    assert result.lam == 0.0
    assert result.estimate == pytest.approx(y.mean())
    constant = ppi_mean(y, np.full(80, 3.0), np.full(400, 3.0))  # no variance at all
    assert constant.lam == 0.0


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 2"):
        ppi_mean([1.0], [1.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="paired"):
        ppi_mean([1.0, 2.0], [1.0], [1.0])
    with pytest.raises(ValueError, match="finite"):
        ppi_mean([1.0, 2.0], [1.0, float("nan")], [1.0])


def test_no_unlabelled_items_is_the_classical_mean() -> None:
    result = ppi_mean([1.0, 2.0, 4.0], [1.0, 2.0, 3.0], [])
    assert result.lam == 0.0
    assert result.estimate == pytest.approx(7 / 3)
    assert result.ci == pytest.approx(classical_mean(np.array([1.0, 2.0, 4.0])).ci)


def _reference_cases() -> list[tuple[str, dict]]:
    return sorted(json.loads(REFERENCE.read_text())["cases"].items())


@pytest.mark.parametrize(("name", "case"), _reference_cases())
def test_equals_ppi_python_recorded(name: str, case: dict) -> None:
    """ppi_py 0.2.3's ppi_mean_pointestimate / ppi_mean_ci (lam=None, and lam=1), recorded by
    tests/stats/make_ppi_reference.py on the inputs stored beside them."""
    result = ppi_mean(case["labels"], case["judged"], case["judged_unlabelled"])
    assert result.estimate == pytest.approx(case["estimate"], rel=1e-12, abs=1e-12), name
    assert result.ci == pytest.approx(tuple(case["ci"]), rel=1e-12, abs=1e-12), name
    plain = ppi_mean(case["labels"], case["judged"], case["judged_unlabelled"], lam=1.0)
    assert plain.ci == pytest.approx(tuple(case["ci_lam_1"]), rel=1e-12, abs=1e-12), name


def test_the_reference_cases_reach_both_clips() -> None:
    lams = {name: ppi_mean(c["labels"], c["judged"], c["judged_unlabelled"]).lam for name, c in _reference_cases()}
    assert any(v == 0.0 for v in lams.values()) and any(v == 1.0 for v in lams.values())
    assert any(0.0 < v < 1.0 for v in lams.values())


@pytest.mark.parametrize("seed", range(5))
def test_equals_ppi_python_live(seed: int) -> None:
    """Against ppi_py on fresh inputs (a dev dependency, so CI runs it; skipped only where the dev
    extras are not installed; the recorded test above always runs)."""
    ppi_py = pytest.importorskip("ppi_py")
    rng = np.random.default_rng(seed)
    n, big_n = int(rng.integers(10, 200)), int(rng.integers(50, 2000))
    truth = rng.integers(1, 6, n + big_n).astype(float)
    judge = np.clip(truth + rng.normal(rng.uniform(-1, 1), rng.uniform(0.2, 3), n + big_n), 1, 5)
    y, f, u = truth[:n], judge[:n], judge[n:]
    result = ppi_mean(y, f, u)
    assert result.estimate == pytest.approx(float(np.ravel(ppi_py.ppi_mean_pointestimate(y, f, u, lam=None))[0]))
    low, high = ppi_py.ppi_mean_ci(y, f, u, alpha=0.05, lam=None)
    assert result.ci == pytest.approx((float(np.ravel(low)[0]), float(np.ravel(high)[0])))


def test_columns_equal_one_call_per_column() -> None:
    """ppi_mean_columns (align's vectorised path) against ppi_mean column by column, with gaps."""
    from trustmh.stats.ppi import ppi_mean_columns

    rng = np.random.default_rng(11)
    truth = rng.integers(1, 6, (300, 6)).astype(float)
    judge = np.clip(truth + rng.normal(0.5, 1.0, truth.shape).round(), 1, 5)
    labels = np.where(rng.random(truth.shape) < 0.2, truth, np.nan)  # 20% labelled
    judge[rng.random(truth.shape) < 0.05] = np.nan  # some unparsed verdicts
    labels[:, 4] = np.nan
    labels[:1, 4] = 3.0  # one label only: no estimate
    judge[:, 5] = 3.0  # a constant judge: lambda 0
    labels[:40, 3] = truth[:40, 3]
    judge[40:, 3] = np.nan  # every verdict labelled: no unlabelled items
    found = ppi_mean_columns(labels, judge)
    assert found[4] is None
    for c in (0, 1, 2, 3, 5):
        paired = np.isfinite(labels[:, c]) & np.isfinite(judge[:, c])
        rest = np.isfinite(judge[:, c]) & ~paired
        expected = ppi_mean(labels[paired, c], judge[paired, c], judge[rest, c])
        got = found[c]
        assert got is not None
        assert _close(got, expected)
    assert found[5].lam == 0.0 and found[3].n_unlabelled == 0 and found[3].lam == 0.0


def _close(a, b) -> bool:
    ja, jb = a.to_json(), b.to_json()
    for key in ("estimate", "lam", "effective_n", "n_labelled", "n_unlabelled"):
        assert ja[key] == pytest.approx(jb[key], rel=1e-10, abs=1e-12), key
    for key in ("judge_only", "human_only"):
        assert ja[key]["value"] == pytest.approx(jb[key]["value"], rel=1e-10)
        assert ja[key]["ci"] == pytest.approx(jb[key]["ci"], rel=1e-10)
        assert ja[key]["n"] == jb[key]["n"]
    assert ja["ci"] == pytest.approx(jb["ci"], rel=1e-10)
    return True
