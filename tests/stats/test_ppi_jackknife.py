"""The stratified jackknife of the tuned weighted PPI estimate (trustmh.stats.ppi_jackknife):
its closed-form leave-one-out updates against literally deleting each item, and its use in
trustmh.stats.ppi.ppi_mean_weighted."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import t as student_t

from trustmh.stats.ppi import ppi_mean_weighted
from trustmh.stats.ppi_design import design_terms, equal_weight_groups, pooled_covariance
from trustmh.stats.ppi_jackknife import jackknife_contributions


def sample(seed: int = 4) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    population = rng.integers(1, 6, 600).astype(float)
    f = np.concatenate([population[:12], population[100:140]])  # 12 of 100 (pi .12), 40 of 500 (pi .08)
    y = np.clip(np.round(f - 0.4 + rng.normal(0, 0.9, len(f))), 1, 5)
    w = np.concatenate([np.full(12, 100 / 12), np.full(40, 500 / 40)])
    return y, f, w, population


def brute_force_theta(y: np.ndarray, f: np.ndarray, groups: list[np.ndarray], shares, factors, mean_u) -> float:
    """The estimate recomputed from scratch: lambda from within-group (co)variances, ddof 1."""
    cov = sum(factors[k] * np.cov(y[g], f[g], ddof=1)[0, 1] for k, g in enumerate(groups))
    var = sum(factors[k] * np.var(f[g], ddof=1) for k, g in enumerate(groups))
    lam = float(np.clip(cov / var, 0, 1)) if var > 0 else 0.0
    return lam * mean_u + sum(shares[k] * (y[g] - lam * f[g]).mean() for k, g in enumerate(groups))


def test_leave_one_out_updates_equal_deleting_each_item() -> None:
    y, f, w, population = sample()
    groups = equal_weight_groups(w)
    shares, factors = design_terms(w, groups)
    pooled = (pooled_covariance(y, f), pooled_covariance(f, f), 0.0)
    found = jackknife_contributions(y, f, groups, shares, factors, float(population.mean()), pooled)
    expected = []
    for g in groups:
        replicates = []
        for i in g:
            kept = [np.setdiff1d(h, [i]) for h in groups]
            replicates.append(brute_force_theta(y, f, kept, shares, factors, float(population.mean())))
        pi = 1 / w[g][0]
        replicates_arr = np.array(replicates)
        expected.append((1 - pi) * (len(g) - 1) / len(g) * ((replicates_arr - replicates_arr.mean()) ** 2).sum())
    assert found == pytest.approx(expected, rel=1e-9)


def test_a_fixed_lambda_jackknifes_to_the_linearised_variance() -> None:
    # judge constant within each group: lambda is 0 in every replicate and the estimate linear
    y, _, w, population = sample()
    f = np.where(w > 10, 2.0, 4.0)
    groups = equal_weight_groups(w)
    shares, factors = design_terms(w, groups)
    found = jackknife_contributions(y, f, groups, shares, factors, 3.0, (0.0, 0.0, 0.0))
    linear = [factors[k] * np.var(y[g], ddof=1) for k, g in enumerate(groups)]
    assert found == pytest.approx(linear, rel=1e-9)


def test_tuned_ppi_interval_is_the_jackknife_with_satterthwaite_t() -> None:
    y, f, w, population = sample()
    result = ppi_mean_weighted(y, f, w, population)
    assert 0 < result.lam < 1
    groups = equal_weight_groups(w)
    shares, factors = design_terms(w, groups)
    rectifier = y - result.lam * f
    parts = jackknife_contributions(
        y, f, groups, shares, factors, float(population.mean()), (pooled_covariance(y, f), pooled_covariance(f, f), 0.0)
    )
    freedom = parts.sum() ** 2 / (parts**2 / np.array([len(g) - 1 for g in groups])).sum()
    half = student_t.ppf(0.975, freedom) * np.sqrt(parts.sum())
    assert result.ci == pytest.approx((result.estimate - half, result.estimate + half))
    # wider than the linearised interval, which takes the tuned lambda as known
    linear = sum(factors[k] * np.var(rectifier[g], ddof=1) for k, g in enumerate(groups))
    assert parts.sum() > linear
