r"""Stratified jackknife variance of the weighted PPI++ estimate with its tuned :math:`\hat\lambda`.

:func:`trustmh.stats.ppi.ppi_mean_weighted` writes the estimate as a function of the groups'
label and judge means and within-group (co)variances:

.. math::
    \hat\theta = \hat\lambda\,\bar f_U + \sum_g W_g\,(\bar Y_g - \hat\lambda \bar f_g), \qquad
    \hat\lambda = \operatorname{clip}_{[0, 1]} \frac{\sum_g c_g\, s_g(Y, f)}{\sum_g c_g\, s_g^2(f)}

Its linearised variance :math:`\sum_g c_g s_g^2(Y - \hat\lambda f)` treats :math:`\hat\lambda` as
if it were known, although it was tuned on the same labels (and chosen to make that very
variance small), so it runs a little low. The delete-one stratified jackknife (JKn; Wolter,
*Introduction to Variance Estimation*, 2nd ed., §4.5) recomputes the whole estimate, the tuning
included, without each labelled item :math:`i` of group :math:`g` in turn
(:math:`\hat\theta_{(gi)}`, the shares :math:`W_g` unchanged):

.. math::
    v_J = \sum_g v_g, \qquad
    v_g = (1 - \pi_g)\,\frac{n_g - 1}{n_g} \sum_{i \in g} \big(\hat\theta_{(gi)} - \bar\theta_{(g)}\big)^2

For a fixed :math:`\lambda` it equals the linearised variance exactly (the estimate is then
linear in the group means); a group of a single item cannot be jackknifed and contributes its
linearised term :math:`c_g\,s^2(Y - \hat\lambda f)` with the pooled variance. Leaving item
:math:`i` out of a group of :math:`n` moves its mean to :math:`(n\bar x - x_i)/(n - 1)` and its
sum of cross-products to :math:`S_{xy} - \frac{n}{n-1}(x_i - \bar x)(y_i - \bar y)`, so every
replicate of a group is computed at once.
"""

from __future__ import annotations

import numpy as np


def tuned_lambda(
    cross_sums: np.ndarray, square_sums: np.ndarray, sizes: np.ndarray, factors: np.ndarray, pooled: tuple[float, float]
) -> np.ndarray:
    """:math:`\\hat\\lambda` from per-group sums of cross-products (last axis: groups); a group of one takes ``pooled``."""
    several = sizes >= 2
    divisor = np.where(several, sizes - 1, 1)
    covariance = np.where(several, cross_sums / divisor, pooled[0])
    variance = np.where(several, square_sums / divisor, pooled[1])
    numerator, denominator = (factors * covariance).sum(-1), (factors * variance).sum(-1)
    safe = np.where(denominator > 0, denominator, 1.0)
    return np.where(denominator > 0, np.clip(numerator / safe, 0.0, 1.0), 0.0)


def group_moments(labels: np.ndarray, judged: np.ndarray, groups: list[np.ndarray]) -> tuple[np.ndarray, ...]:
    """Per group: size, mean of Y, mean of f, sum of cross-products of Y and f, sum of squares of f."""
    sizes = np.array([len(g) for g in groups], dtype=float)
    mean_y = np.array([labels[g].mean() for g in groups])
    mean_f = np.array([judged[g].mean() for g in groups])
    cross = np.array([((labels[g] - mean_y[k]) * (judged[g] - mean_f[k])).sum() for k, g in enumerate(groups)])
    square = np.array([((judged[g] - mean_f[k]) ** 2).sum() for k, g in enumerate(groups)])
    return sizes, mean_y, mean_f, cross, square


def jackknife_contributions(
    labels: np.ndarray,
    judged: np.ndarray,
    groups: list[np.ndarray],
    shares: np.ndarray,
    factors: np.ndarray,
    population_mean: float,
    pooled: tuple[float, float, float],
) -> np.ndarray:
    """Each group's :math:`v_g` (module docstring); ``pooled`` = the labels' pooled cov(Y, f), var(f), var(r)."""
    sizes, mean_y, mean_f, cross, square = group_moments(labels, judged, groups)
    contributions = np.zeros(len(groups))
    for k, g in enumerate(groups):
        n = len(g)
        if n < 2:
            contributions[k] = factors[k] * pooled[2]
            continue
        dy, df = labels[g] - mean_y[k], judged[g] - mean_f[k]
        reps_y, reps_f = np.tile(mean_y, (n, 1)), np.tile(mean_f, (n, 1))
        reps_cross, reps_square, reps_sizes = np.tile(cross, (n, 1)), np.tile(square, (n, 1)), np.tile(sizes, (n, 1))
        reps_y[:, k] = (n * mean_y[k] - labels[g]) / (n - 1)
        reps_f[:, k] = (n * mean_f[k] - judged[g]) / (n - 1)
        reps_cross[:, k] = cross[k] - n / (n - 1) * dy * df
        reps_square[:, k] = square[k] - n / (n - 1) * df * df
        reps_sizes[:, k] = n - 1
        lam = tuned_lambda(reps_cross, reps_square, reps_sizes, factors, pooled[:2])
        theta = lam * population_mean + (shares * (reps_y - lam[:, None] * reps_f)).sum(-1)
        correction = factors[k] * n / shares[k] ** 2  # 1 - pi_g, as c_g = W_g^2 (1 - pi_g) / n_g
        contributions[k] = correction * (n - 1) / n * float(((theta - theta.mean()) ** 2).sum())
    return contributions
