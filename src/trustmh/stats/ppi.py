r"""Prediction-powered inference for a mean, power-tuned (PPI++).

Angelopoulos, Duchi & Zrnic (2023), *PPI++: Efficient Prediction-Powered Inference*
(arXiv:2311.01453). A judge scored every item; humans labelled a random subset. The judge's
mean over all items is precise but biased by however the judge errs; the humans' mean over
their subset is unbiased but noisy. PPI uses the labelled items to measure the judge's bias
and removes it from the judge's mean, so the estimate is unbiased yet (when the judge tracks
the humans) much more precise than the humans alone.

Notation: :math:`Y_i` the human label and :math:`f_i` the judge's score of the :math:`n`
labelled items; :math:`\tilde f_j` the judge's scores of the :math:`N` unlabelled items.

.. math::
    \hat\theta_\lambda = \lambda\,\overline{\tilde f} + \overline{(Y - \lambda f)}

    \widehat{se}^2 = \lambda^2\,\frac{\hat\sigma^2(\tilde f)}{N} + \frac{\hat\sigma^2(Y - \lambda f)}{n}

    \hat\lambda = \operatorname{clip}_{[0, 1]}\;
        \frac{\widehat{\operatorname{Cov}}(Y, f)}{(1 + n/N)\,\widehat{\operatorname{Var}}(f \cup \tilde f)}

and the CI is :math:`\hat\theta \pm z_{1-\alpha/2}\,\widehat{se}`. :math:`\lambda = 1` is plain
PPI, :math:`\lambda = 0` the classical mean of the labels: the tuned :math:`\hat\lambda`
minimises the variance, so the estimate is (asymptotically) never less precise than the labels
alone and falls back to them when the judge carries no information. The variance estimates
match ``ppi_py`` (``ppi_mean_ci(..., lam=None)``): :math:`\hat\sigma^2` and the covariance
divide by the count, the pooled judge variance by count - 1 (tested against its numbers).

Assumption: the labelled items are a uniformly random sample of the same items the judge
scored (not the hardest ones, not another dataset). The unlabelled set is the judged items
*without* a label, so the two samples are disjoint as the method requires.

The effective sample size is how many labels the classical mean would need for the same CI
width: :math:`n_\text{eff} = n\,\widehat{se}^2_\text{classical} / \widehat{se}^2_\text{PPI}`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np

from trustmh.stats.ppi_design import (
    design_terms,
    equal_weight_groups,
    pooled_covariance,
    within_covariances,
)
from trustmh.stats.ppi_jackknife import group_moments, jackknife_contributions, tuned_lambda
from trustmh.stats.stratified_score import stratified_proportion_score_ci

NAN = float("nan")


@dataclass(frozen=True)
class MeanInterval:
    """A mean with its normal-approximation CI and the count it came from."""

    value: float
    ci: tuple[float, float]
    n: int

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "ci": list(self.ci), "n": self.n}


@dataclass(frozen=True)
class PPIMean:
    """The PPI++ estimate of a mean beside the judge-only and human-only ones."""

    estimate: float
    ci: tuple[float, float]
    n_labelled: int
    n_unlabelled: int
    lam: float
    effective_n: float  # labels the human-only mean would need for this CI width
    effective_n_gained: float  # effective_n - n_labelled
    judge_only: MeanInterval  # the judge's mean over every judged item, CI as if the judge were right
    human_only: MeanInterval  # the classical mean of the labels
    alpha: float = 0.05
    interval: str = "normal"  # how the CI was made: normal (z), t (Satterthwaite df) or score

    def to_json(self) -> dict[str, Any]:
        # By hand rather than dataclasses.asdict, which deep-copies: align makes hundreds of these.
        return {
            "estimate": self.estimate,
            "ci": list(self.ci),
            "n_labelled": self.n_labelled,
            "n_unlabelled": self.n_unlabelled,
            "lam": self.lam,
            "effective_n": self.effective_n,
            "effective_n_gained": self.effective_n_gained,
            "judge_only": self.judge_only.to_json(),
            "human_only": self.human_only.to_json(),
            "alpha": self.alpha,
            "interval": self.interval,
        }


@functools.lru_cache(maxsize=8)
def _z(alpha: float) -> float:
    return NormalDist().inv_cdf(1 - alpha / 2)


def _interval(centre: float, se: float, alpha: float) -> tuple[float, float]:
    if not np.isfinite(se):
        return (NAN, NAN)
    half = _z(alpha) * se
    return (centre - half, centre + half)


def classical_mean(values: np.ndarray, alpha: float = 0.05) -> MeanInterval:
    """Mean with the CLT interval ``mean ± z·σ̂/√n`` (σ̂ divides by n, as PPI's λ = 0 case)."""
    values = np.asarray(values, dtype=float)
    n = len(values)
    if n == 0:
        return MeanInterval(NAN, (NAN, NAN), 0)
    mean = float(values.mean())
    se = float(values.std() / np.sqrt(n)) if n >= 2 else NAN
    return MeanInterval(mean, _interval(mean, se, alpha), n)


def power_tuning(labels: np.ndarray, judged: np.ndarray, judged_unlabelled: np.ndarray) -> float:
    """The variance-minimising :math:`\\hat\\lambda` (module docstring), clipped to [0, 1]."""
    n, big_n = len(labels), len(judged_unlabelled)
    if n < 2 or big_n == 0:
        return 0.0
    covariance = float(((labels - labels.mean()) * (judged - judged.mean())).mean())
    pooled = np.concatenate([judged, judged_unlabelled])
    variance = float(pooled.var(ddof=1))
    if variance <= 0:
        return 0.0  # a judge that gives every item the same score says nothing about the items
    return float(np.clip(covariance / ((1 + n / big_n) * variance), 0.0, 1.0))


def ppi_mean(
    labels: np.ndarray | list[float],
    judged: np.ndarray | list[float],
    judged_unlabelled: np.ndarray | list[float],
    alpha: float = 0.05,
    lam: float | None = None,
) -> PPIMean:
    """PPI++ estimate of the mean of the human labels' population (module docstring).

    ``labels`` and ``judged`` are paired (the human label and the judge's score of each
    labelled item); ``judged_unlabelled`` the judge's scores of the other items. ``lam``
    fixes λ (1 = plain PPI, 0 = labels only); ``None`` tunes it. Fewer than 2 labels is a
    ValueError: no interval can be estimated from them.
    """
    y = np.asarray(labels, dtype=float)
    f = np.asarray(judged, dtype=float)
    f_unlabelled = np.asarray(judged_unlabelled, dtype=float)
    if y.shape != f.shape or y.ndim != 1:
        raise ValueError(f"labels {y.shape} and judged {f.shape} must be paired 1-d arrays")
    if len(y) < 2:
        raise ValueError(f"{len(y)} labelled item(s): PPI needs at least 2")
    if not (np.isfinite(y).all() and np.isfinite(f).all() and np.isfinite(f_unlabelled).all()):
        raise ValueError("labels and judge scores must be finite (leave unparsed verdicts out)")
    n, big_n = len(y), len(f_unlabelled)
    tuned = power_tuning(y, f, f_unlabelled) if lam is None else float(lam)
    imputed = float(f_unlabelled.mean()) if big_n else 0.0
    rectifier = y - tuned * f
    estimate = tuned * imputed + float(rectifier.mean())
    imputed_var = tuned**2 * float(f_unlabelled.var()) / big_n if big_n else 0.0
    se = float(np.sqrt(imputed_var + float(rectifier.var()) / n))
    human_only = classical_mean(y, alpha)
    classical_se = float(y.std() / np.sqrt(n))
    effective_n = n * classical_se**2 / se**2 if se > 0 else float("inf") if classical_se > 0 else float(n)
    return PPIMean(
        estimate=estimate,
        ci=_interval(estimate, se, alpha),
        n_labelled=n,
        n_unlabelled=big_n,
        lam=tuned,
        effective_n=float(effective_n),
        effective_n_gained=float(effective_n - n),
        judge_only=classical_mean(np.concatenate([f, f_unlabelled]), alpha),
        human_only=human_only,
        alpha=alpha,
    )


def ppi_mean_columns(labels: np.ndarray, judged: np.ndarray, alpha: float = 0.05) -> list[PPIMean | None]:
    """:func:`ppi_mean` of every column of ``(items, columns)`` arrays at once (NaN = none).

    In a column, the labelled items are those with both a label and a judge score, the
    unlabelled ones those with a judge score only. The same numbers as :func:`ppi_mean` per
    column (tested), computed with masked sums so that hundreds of columns (``trustmh align``:
    judges x response models x attributes) cost one pass. A column with fewer than 2
    labelled items is ``None``.
    """
    y, f = np.asarray(labels, dtype=float), np.asarray(judged, dtype=float)
    has_f = np.isfinite(f)
    lab = has_f & np.isfinite(y)
    unl = has_f & ~lab
    y0, f0 = np.where(lab, y, 0.0), np.where(has_f, f, 0.0)
    n, big_n, total = lab.sum(0), unl.sum(0), has_f.sum(0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_y, mean_f = y0.sum(0) / n, np.where(lab, f0, 0.0).sum(0) / n
        mean_u, mean_all = np.where(unl, f0, 0.0).sum(0) / big_n, f0.sum(0) / total
        cov = np.where(lab, (y0 - mean_y) * (f0 - mean_f), 0.0).sum(0) / n
        pooled = np.where(has_f, (f0 - mean_all) ** 2, 0.0).sum(0) / (total - 1)
        lam = np.clip(cov / ((1 + n / big_n) * pooled), 0.0, 1.0)
        lam = np.where((big_n > 0) & (pooled > 0) & np.isfinite(lam), lam, 0.0)
        rect = y0 - lam * f0
        mean_r = np.where(lab, rect, 0.0).sum(0) / n
        var_r = np.where(lab, (rect - mean_r) ** 2, 0.0).sum(0) / n
        var_u = np.where(unl, (f0 - mean_u) ** 2, 0.0).sum(0) / big_n
        se = np.sqrt(np.where(big_n > 0, lam**2 * var_u / big_n, 0.0) + var_r / n)
        estimate = np.where(big_n > 0, lam * mean_u, 0.0) + mean_r
        se_human = np.sqrt(np.where(lab, (y0 - mean_y) ** 2, 0.0).sum(0) / n / n)
        se_judge = np.sqrt(np.where(has_f, (f0 - mean_all) ** 2, 0.0).sum(0) / total / total)
    out: list[PPIMean | None] = []
    for c in range(y.shape[1]):
        if n[c] < 2:
            out.append(None)
            continue
        effective = n[c] * se_human[c] ** 2 / se[c] ** 2 if se[c] > 0 else float("inf") if se_human[c] > 0 else n[c]
        out.append(
            PPIMean(
                estimate=float(estimate[c]),
                ci=_interval(float(estimate[c]), float(se[c]), alpha),
                n_labelled=int(n[c]),
                n_unlabelled=int(big_n[c]),
                lam=float(lam[c]),
                effective_n=float(effective),
                effective_n_gained=float(effective - n[c]),
                judge_only=MeanInterval(
                    float(mean_all[c]), _interval(float(mean_all[c]), float(se_judge[c]), alpha), int(total[c])
                ),
                human_only=MeanInterval(
                    float(mean_y[c]), _interval(float(mean_y[c]), float(se_human[c]), alpha), int(n[c])
                ),
                alpha=alpha,
            )
        )
    return out


def _t_interval(centre: float, parts: np.ndarray, sizes: np.ndarray, alpha: float) -> tuple[float, float]:
    """``centre ± t·se`` with Satterthwaite's degrees of freedom for the groups' variance ``parts``."""
    from scipy.stats import t as student_t  # type: ignore[import-untyped]  # ~2 s to import: only when needed

    variance = float(max(parts.sum(), 0.0))
    if variance == 0:
        return (centre, centre)
    freedom = variance**2 / float((parts**2 / np.maximum(sizes - 1, 1)).sum())
    half = float(student_t.ppf(1 - alpha / 2, freedom)) * np.sqrt(variance)
    return (centre - half, centre + half)


def _score_ci(
    y: np.ndarray, w: np.ndarray, groups: list[np.ndarray], shares: np.ndarray, alpha: float
) -> tuple[float, float] | None:
    """The stratified score interval of 0/1 labels, or None when they are not 0/1 or a group has one item."""
    if not np.isin(y, (0.0, 1.0)).all() or min(len(g) for g in groups) < 2:
        return None
    positives = [y[g].sum() for g in groups]
    inclusion = [1 / w[g][0] for g in groups]
    return stratified_proportion_score_ci(positives, [len(g) for g in groups], shares, inclusion, _z(alpha))


def ppi_mean_weighted(
    labels: np.ndarray | list[float],
    judged: np.ndarray | list[float],
    weights: np.ndarray | list[float],
    judged_population: np.ndarray | list[float],
    alpha: float = 0.05,
    lam: float | None = None,
) -> PPIMean:
    r"""PPI++ with inverse-probability weights: the labelled items were drawn with unequal
    inclusion probabilities :math:`\pi_i` (e.g. a stratified sample that over-draws the items the
    judge flagged), and ``weights`` are :math:`w_i = 1/\pi_i`.

    The judge scored every item of the run (the finite population :math:`U`, ``judged_population``:
    the judge's scores of *all* its items, labelled ones included). The labelled items fall into
    groups :math:`g` of equal :math:`\pi_g` (the strata of a stratified simple random sample,
    strata with the same sampling fraction together). With the rectifier :math:`r_i = Y_i - \lambda f_i`:

    .. math::
        \hat\theta_\lambda = \lambda\,\bar f_U + \sum_g W_g\,\bar r_g, \qquad
        W_g = \frac{n_g / \pi_g}{\sum_h n_h / \pi_h}

        \widehat{se}^2 = \sum_g c_g\, s_g^2(r), \qquad c_g = W_g^2\,\frac{1 - \pi_g}{n_g}

        \hat\lambda = \operatorname{clip}_{[0, 1]}
            \frac{\sum_g c_g\, s_g(Y, f)}{\sum_g c_g\, s_g^2(f)}

    :math:`\sum_g W_g \bar r_g` is the Hájek (ratio) form of the Horvitz–Thompson estimator
    :math:`\frac1N \sum_{i \in S} r_i / \pi_i` (the two agree when every drawn item was labelled;
    the ratio form stays unbiased for the population when labels are missing at random within a
    group: a skipped item). :math:`s_g^2`, :math:`s_g(Y, f)` are the within-group sample
    (co)variances (divisor :math:`n_g - 1`; a group of one item takes the pooled value), and the
    variance is the stratified-sampling variance with its finite-population correction
    :math:`1 - \pi_g`: the inference is about the run's items, whose judge scores are all known,
    so :math:`\bar f_U` carries no sampling error. :math:`\hat\lambda` minimises that variance;
    :math:`\lambda = 0` gives the weighted mean of the labels alone (``human_only``).

    That :math:`\widehat{se}^2` is exact for a fixed :math:`\lambda`; with the tuned
    :math:`\hat\lambda` it ignores that :math:`\hat\lambda` was fitted to the same labels, so the
    variance is then the stratified jackknife's, the tuning redone in every replicate
    (:mod:`trustmh.stats.ppi_jackknife`). Either way it is a sum of per-group parts :math:`v_g`,
    and the CI is :math:`\hat\theta \pm t_{1-\alpha/2,\,\nu}\,\widehat{se}` with Satterthwaite's
    degrees of freedom :math:`\nu = (\sum_g v_g)^2 / \sum_g v_g^2 / (n_g - 1)` (a group of few
    labels makes the variance estimate itself uncertain), except where the estimate is
    a stratified proportion: 0/1 labels, :math:`\lambda = 0` (always so for ``human_only``, and
    for the tuned PPI when the judge's score does not vary within a group, as when the strata are
    the judge's verdicts) and at least 2 labels per group. Then it is the stratified score interval
    (:func:`trustmh.stats.stratified_score.stratified_proportion_score_ci`), which evaluates the
    variance at each hypothesised mean: a group with few positives among its labels gives a
    skewed estimate whose Wald interval misses the truth on the high side far more than
    :math:`\alpha/2` of the time (``benchmarks/labels_ppi_coverage.py``).

    With every :math:`\pi_i` equal this is PPI for a simple random sample without replacement.
    Fewer than 2 labels, a weight below 1 or a non-finite value is a ValueError.
    """
    y = np.asarray(labels, dtype=float)
    f = np.asarray(judged, dtype=float)
    w = np.asarray(weights, dtype=float)
    population = np.asarray(judged_population, dtype=float)
    if not (y.shape == f.shape == w.shape) or y.ndim != 1:
        raise ValueError(f"labels {y.shape}, judged {f.shape} and weights {w.shape} must be paired 1-d arrays")
    if len(y) < 2:
        raise ValueError(f"{len(y)} labelled item(s): PPI needs at least 2")
    if not all(np.isfinite(a).all() for a in (y, f, w, population)):
        raise ValueError("labels, judge scores and weights must be finite (leave unparsed verdicts out)")
    if (w < 1 - 1e-9).any():
        raise ValueError("a weight is 1 / inclusion probability: at least 1")
    groups = equal_weight_groups(w)
    shares, factors = design_terms(w, groups)
    pooled = (pooled_covariance(y, f), pooled_covariance(f, f))
    if lam is None:
        sizes, _, _, cross, square = group_moments(y, f, groups)
        tuned = float(tuned_lambda(cross, square, sizes, factors, pooled))
    else:
        tuned = float(lam)

    def estimate_and_variances(lam_value: float, jackknife: bool) -> tuple[float, np.ndarray]:
        r = y - lam_value * f
        means = np.array([r[g].mean() for g in groups])
        centre = lam_value * float(population.mean()) + float((shares * means).sum())
        if jackknife:  # the tuning of lambda on these labels is part of the estimate's variance
            return centre, jackknife_contributions(
                y, f, groups, shares, factors, float(population.mean()), (*pooled, pooled_covariance(r, r))
            )
        return centre, factors * within_covariances(r, r, groups, pooled_covariance(r, r))

    estimate, parts = estimate_and_variances(tuned, jackknife=lam is None)
    human_value, human_parts = estimate_and_variances(0.0, jackknife=False)
    sizes_g = np.array([len(g) for g in groups])
    score = _score_ci(y, w, groups, shares, alpha)
    human_ci = score or _t_interval(human_value, human_parts, sizes_g, alpha)
    ci = human_ci if tuned == 0 and score else _t_interval(estimate, parts, sizes_g, alpha)
    se, human_se = float(np.sqrt(max(parts.sum(), 0.0))), float(np.sqrt(max(human_parts.sum(), 0.0)))
    n = len(y)
    effective_n = n * human_se**2 / se**2 if se > 0 else float("inf") if human_se > 0 else float(n)
    return PPIMean(
        estimate=estimate,
        ci=ci,
        n_labelled=n,
        n_unlabelled=max(len(population) - n, 0),
        lam=tuned,
        effective_n=float(effective_n),
        effective_n_gained=float(effective_n - n),
        judge_only=classical_mean(population, alpha),
        human_only=MeanInterval(human_value, human_ci, n),
        alpha=alpha,
        interval="score" if tuned == 0 and score else "t",
    )
