r"""Score (Wilson-type) confidence interval for a proportion estimated from a stratified sample.

Stratum :math:`h` has population share :math:`W_h`, :math:`n_h` labelled items drawn without
replacement with inclusion probability :math:`\pi_h`, and :math:`x_h` of them are positive. The
stratified estimate and its design variance at stratum proportions :math:`p_h` are

.. math::
    \hat\theta = \sum_h W_h\,\frac{x_h}{n_h}, \qquad
    V(p) = \sum_h W_h^2\,(1 - \pi_h)\,\frac{p_h (1 - p_h)}{n_h - 1}

(:math:`p_h (1 - p_h)\,n_h / (n_h - 1)` is the within-stratum sample variance of 0/1 labels).
The Wald interval :math:`\hat\theta \pm z \sqrt{V(\hat p)}` undercovers when a heavy stratum has
few positives: a sample that happened to draw few of them also estimates a small variance, so the
interval misses on the high side. The score interval instead evaluates the variance *at each
hypothesised value* :math:`\theta_0`, with the stratum proportions that best fit the data under
that hypothesis (the binomial maximum likelihood :math:`\tilde p_h(\theta_0)` subject to
:math:`\sum_h W_h \tilde p_h = \theta_0`, as in Miettinen & Nurminen's stratified score tests):

.. math::
    \operatorname{CI} = \{\theta_0 : (\hat\theta - \theta_0)^2 \le z_{1-\alpha/2}^2\, V(\tilde p(\theta_0))\}

A fully labelled stratum (:math:`\pi_h = 1`) has a known proportion: it adds its
:math:`W_h x_h / n_h` and no variance, and is left out of the constrained fit. With one stratum
and :math:`\pi \to 0` this is Wilson's interval (with :math:`n - 1` for
:math:`n`). The Lagrange condition of the constrained maximum, :math:`x_h - n_h p_h = \mu W_h
p_h (1 - p_h)`, gives each :math:`\tilde p_h` as the root in [0, 1] of a quadratic for a given
multiplier :math:`\mu`, and :math:`\sum_h W_h \tilde p_h` falls monotonically in :math:`\mu`, so
both the multiplier and the two ends are found by bracketed root finding.
"""

from __future__ import annotations

import numpy as np


def constrained_proportions(
    positives: np.ndarray, sizes: np.ndarray, shares: np.ndarray, multiplier: float
) -> np.ndarray:
    """The stationary :math:`p_h` of the Lagrangian for ``multiplier`` :math:`\\mu` (module docstring)."""
    a = multiplier * shares
    s = a + sizes
    root = np.sqrt(np.maximum(s * s - 4 * a * positives, 0.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        # s > 0: the root written so that it neither cancels nor divides by a ~ 0; s <= 0 (so a < 0,
        # a downward parabola, positive at 0 and not above 0 at 1): its larger root.
        stable = 2 * positives / (s + root)
        downward = (s - root) / (2 * a)
    return np.clip(np.where(s > 0, stable, downward), 0.0, 1.0)


def proportions_under(positives: np.ndarray, sizes: np.ndarray, shares: np.ndarray, theta: float) -> np.ndarray:
    """:math:`\\tilde p(\\theta_0)`: the binomial MLE of the stratum proportions given the overall one."""
    from scipy.optimize import brentq  # type: ignore[import-untyped]  # scipy is slow to import: only when needed

    def gap(multiplier: float) -> float:
        return float((shares * constrained_proportions(positives, sizes, shares, multiplier)).sum()) - theta

    low, high = -1.0, 1.0
    while gap(low) < 0:
        low *= 2
    while gap(high) > 0:
        high *= 2
    return constrained_proportions(positives, sizes, shares, brentq(gap, low, high, xtol=1e-12))


def stratified_proportion_score_ci(
    positives: np.ndarray | list[float],
    sizes: np.ndarray | list[float],
    shares: np.ndarray | list[float],
    inclusion: np.ndarray | list[float],
    z: float,
) -> tuple[float, float]:
    """The score interval of the module docstring; every stratum needs ``sizes`` of at least 2."""
    from scipy.optimize import brentq  # scipy is slow to import: only when needed

    x, n, w, pi = (np.asarray(a, dtype=float) for a in (positives, sizes, shares, inclusion))
    if (n < 2).any():
        raise ValueError("every stratum needs at least 2 labelled items for a score interval")
    theta = float((w * x / n).sum())
    sampled = pi < 1 - 1e-9  # a fully labelled stratum's proportion is known: it stays out of the fit
    if not sampled.any():
        return (theta, theta)
    known = float((w * x / n)[~sampled].sum())
    x, n, w, pi = x[sampled], n[sampled], w[sampled], pi[sampled]
    factors = w**2 * (1 - pi) / (n - 1)

    def excess(theta0: float) -> float:
        p = proportions_under(x, n, w, theta0 - known)
        return (theta - theta0) ** 2 - z * z * float((factors * p * (1 - p)).sum())

    bottom, top, edge = known, known + float(w.sum()), 1e-10
    low = high = theta
    # The ends lie where the excess turns positive; next to the estimate it is negative unless
    # the variance vanishes there (no positives, say), and at the bounds positive unless the
    # bound itself is inside the interval.
    if theta - edge > bottom and excess(theta - edge) < 0:
        low = bottom if excess(bottom + edge) <= 0 else brentq(excess, bottom + edge, theta - edge, xtol=1e-12)
    if theta + edge < top and excess(theta + edge) < 0:
        high = top if excess(top - edge) <= 0 else brentq(excess, theta + edge, top - edge, xtol=1e-12)
    return (float(low), float(high))
