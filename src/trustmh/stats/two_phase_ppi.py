r"""A population rate from a stratified judged sample, corrected by clinician labels of part of it.

Two phases (double sampling; Cochran, *Sampling Techniques*, 3rd ed., §12.6, double sampling for
a difference/regression estimate). Phase 1: stratum :math:`h` holds :math:`N_h` of the
:math:`N` units; a simple random sample of :math:`n_h` is judged, the judge's answer :math:`f_i`
(1 = positive). Phase 2: clinicians label :math:`m_h` of those judged units, a simple random
sample of them, :math:`Y_i` (1 = positive, or the share of raters saying so). The target is the
rate the clinicians would give the whole population, :math:`\theta = \frac1N \sum_{i \in U} Y_i`.

**Estimate** (PPI++'s form, Angelopoulos, Duchi & Zrnic 2023, with the judge's mean taken from
the phase-1 sample instead of the whole population): with the rectifier :math:`r_i = Y_i - \lambda
f_i` and :math:`W_h = N_h / N`,

.. math::
    \hat\theta_\lambda = \sum_h W_h \big(\lambda \bar f_h + \bar r_h\big)

(:math:`\bar f_h` over the :math:`n_h` judged, :math:`\bar r_h` over the :math:`m_h` labelled).
For any fixed :math:`\lambda` it is unbiased for :math:`\theta`: the labels remove whatever bias
the judge has, stratum by stratum. :math:`\lambda = 0` is the stratified mean of the labels
alone.

**Variance** (phase 1 as if every judged unit had been labelled, plus phase 2's error in
estimating the rectifier's phase-1 mean; :math:`s^2` sample variances with divisor
:math:`m_h - 1`, over the labelled units):

.. math::
    \hat V_\lambda = \sum_h W_h^2 \Big[\big(1 - \tfrac{n_h}{N_h}\big)\frac{s^2_{Y,h}}{n_h}
        + \big(1 - \tfrac{m_h}{n_h}\big)\frac{s^2_{r,h}}{m_h}\Big]

**Tuning**: only the second term depends on :math:`\lambda`
(:math:`s^2_r = s^2_Y - 2\lambda s_{Yf} + \lambda^2 s^2_f`), so the variance is smallest at

.. math::
    \hat\lambda = \operatorname{clip}_{[0, 1]} \frac{\sum_h a_h\, s_{Yf,h}}{\sum_h a_h\, s^2_{f,h}},
    \qquad a_h = W_h^2 \big(\tfrac{1}{m_h} - \tfrac{1}{n_h}\big)

A judge that tracks the clinicians gives :math:`\hat\lambda` near 1 and a variance near that of
labelling every judged unit; a judge that says nothing about them gives :math:`\hat\lambda = 0`.

**Interval.** Rates here are rare (a fraction of a percent), where a normal interval misses on the
high side, so the interval is Korn and Graubard's (as in :mod:`trustmh.stats.survey`): a
Clopper–Pearson interval at the effective sample size :math:`n^* = \hat q (1 - \hat q) / \hat V`,
capped at the judged count (the labels cannot tell more than labelling every judged unit would),
over the sampled part :math:`\hat q` of the rate (strata known exactly are added outside it); at
:math:`\hat q` = 0 or 1, :math:`n^*` is the number of labels (100 labels that all agree with a
judge that found nothing bound the rate as 0 of 100 would, not as 0 of every judged unit). Two
guards keep a lucky sample from claiming too much: in :math:`\hat V`, each stratum's label
proportion and its judge-clinician disagreement rate are smoothed as :math:`(x + 1/2) / (m_h + 1)`
(a stratum whose few labels show no positive or no disagreement still carries its uncertainty), and
the estimate is clipped to [0, 1] (a rectifier can push it below 0). A stratum needs at least 2
labelled units; with fewer its rectifier has no variance estimate and the rate is not estimable.
When every unit of every stratum is labelled, the rate is known: the interval is that point.

The guards cost width, not coverage: ``benchmarks/audit_ppi_coverage_bench.py`` measures both
(without them, 79% coverage at 400 labels of 4,000 judged; with them, at least 97%).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from trustmh.stats.survey import clopper_pearson

MIN_LABELS_PER_STRATUM = 2


@dataclass(frozen=True)
class LabelledStratum:
    """One phase-1 stratum: its size, the judge's answers and, for the labelled units, both answers."""

    population: int  # N_h
    judged: np.ndarray  # f over the n_h judged units (labelled ones included)
    labels: np.ndarray  # Y of the m_h labelled units
    labelled_judged: np.ndarray  # f of the same m_h units, paired with ``labels``

    def __post_init__(self) -> None:
        n, m = len(self.judged), len(self.labels)
        if len(self.labelled_judged) != m or not m <= n <= self.population:
            raise ValueError(f"expected labelled <= judged <= population and paired labels, found {m}, {n}, {self}")


@dataclass(frozen=True)
class TwoPhaseEstimate:
    """The corrected rate, its CI, the tuned lambda and the counts it came from."""

    value: float
    ci: tuple[float, float]
    lam: float
    judged: int
    labelled: int


def _smoothed(share: float, count: int) -> float:
    """The variance of a 0/1 variable whose ``share`` of ``count`` units is smoothed to (x + 1/2) / (count + 1)."""
    p = (share * count + 0.5) / (count + 1)
    return p * (1 - p)


def _stratum_rate(s: LabelledStratum, lam: float) -> float:
    r""":math:`\lambda \bar f_h + \bar r_h`: the stratum's corrected rate."""
    return lam * float(s.judged.mean()) + float((s.labels - lam * s.labelled_judged).mean())


def _variance_parts(strata: Sequence[LabelledStratum], shares: np.ndarray, lam: float) -> np.ndarray:
    parts = []
    for w, s in zip(shares, strata, strict=True):
        n, m = len(s.judged), len(s.labels)
        rectifier = s.labels - lam * s.labelled_judged
        rate = min(max(_stratum_rate(s, lam), 0.0), 1.0)
        # phase 1: the labels' variance had every judged unit been labelled, at least that of the
        # stratum's corrected rate smoothed over the n judged
        phase_one = (1 - n / s.population) * max(float(s.labels.var(ddof=1)), _smoothed(rate, n)) / n
        # phase 2: r = (1 - lam) Y + lam (Y - f), at least what the smoothed label and disagreement
        # shares of the m labelled give
        disagreement = float(np.abs(s.labels - s.labelled_judged).mean())
        floor = (1 - lam) ** 2 * _smoothed(float(s.labels.mean()), m) + lam**2 * _smoothed(disagreement, m)
        phase_two = (1 - m / n) * max(float(rectifier.var(ddof=1)), floor) / m if m < n else 0.0
        parts.append(w * w * (phase_one + phase_two))
    return np.array(parts)


def tuned_lambda(strata: Sequence[LabelledStratum], shares: np.ndarray) -> float:
    """:math:`\\hat\\lambda` of the module docstring."""
    numerator = denominator = 0.0
    for w, s in zip(shares, strata, strict=True):
        n, m = len(s.judged), len(s.labels)
        weight = w * w * (1 / m - 1 / n)
        numerator += weight * float(np.cov(s.labels, s.labelled_judged, ddof=1)[0, 1])
        denominator += weight * float(s.labelled_judged.var(ddof=1))
    return float(np.clip(numerator / denominator, 0.0, 1.0)) if denominator > 0 else 0.0


def two_phase_rate(
    strata: Sequence[LabelledStratum],
    known: Sequence[tuple[int, float]] = (),
    alpha: float = 0.05,
    lam: float | None = None,
) -> TwoPhaseEstimate:
    """The corrected rate (module docstring). ``known``: strata whose rate is known without
    sampling, as (population, positives). ``lam`` fixes :math:`\\lambda`; ``None`` tunes it.

    NaN (estimate and CI) when a stratum holds fewer than 2 labelled units."""
    judged = sum(len(s.judged) for s in strata)
    labelled = sum(len(s.labels) for s in strata)
    if not strata or any(len(s.labels) < MIN_LABELS_PER_STRATUM for s in strata):
        return TwoPhaseEstimate(float("nan"), (float("nan"), float("nan")), float("nan"), judged, labelled)
    total = sum(s.population for s in strata) + sum(size for size, _ in known)
    exact = sum(positives for _, positives in known) / total
    weight = sum(s.population for s in strata) / total  # the sampled part's share
    shares = np.array([s.population for s in strata]) / total / weight
    tuned = tuned_lambda(strata, shares) if lam is None else float(lam)
    q = min(max(sum(w * _stratum_rate(s, tuned) for w, s in zip(shares, strata, strict=True)), 0.0), 1.0)
    if all(len(s.labels) == s.population for s in strata):  # every unit labelled: the rate is known
        return TwoPhaseEstimate(exact + weight * q, (exact + weight * q, exact + weight * q), tuned, judged, labelled)
    variance = float(_variance_parts(strata, shares, tuned).sum())
    # Korn & Graubard: the effective sample size, never more than the units judged; at an estimate
    # of 0 or 1 (where q (1 - q) says nothing) the labels' count, as their rule takes the sample size
    effective = min(q * (1 - q) / variance, judged) if 0 < q < 1 and variance > 0 else float(min(labelled, judged))
    low, high = clopper_pearson(effective * q, effective, alpha)
    return TwoPhaseEstimate(exact + weight * q, (exact + weight * low, exact + weight * high), tuned, judged, labelled)
