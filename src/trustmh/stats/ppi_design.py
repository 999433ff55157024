r"""The stratified design of a weighted PPI sample (:func:`trustmh.stats.ppi.ppi_mean_weighted`).

The labelled items fall into groups of equal inclusion probability :math:`\pi_g` (the strata of
a stratified simple random sample; strata with the same sampling fraction together). Per group:
the Hájek share :math:`W_g = (n_g / \pi_g) / \sum_h n_h / \pi_h`, the variance factor
:math:`c_g = W_g^2 (1 - \pi_g) / n_g`, and within-group sample (co)variances with divisor
:math:`n_g - 1` (a group of one item takes the pooled value).
"""

from __future__ import annotations

import numpy as np

# Below this many labels with the rarer answer of a 0/1 field in a stratum, a normal or t interval
# of the rate covers the truth less than 93% of the time (docs/labels.md: 8 of 150 labels in the
# heavy stratum, 92%; 5, 90%; 10, 93%).
RELIABLE_RARER_ANSWERS = 10


def fewest_rarer_answers(labels: np.ndarray, weights: np.ndarray | None = None) -> float:
    """Over the strata (groups of equal weight; one group without weights), the fewest labels
    giving the rarer answer of 0/1 labels (a label that is a share of raters counts as that share)."""
    y = np.asarray(labels, dtype=float)
    groups = equal_weight_groups(np.asarray(weights, dtype=float)) if weights is not None else [np.arange(len(y))]
    return float(min(min(y[g].sum(), (1 - y[g]).sum()) for g in groups))


def equal_weight_groups(weights: np.ndarray) -> list[np.ndarray]:
    """Indices of the labelled items sharing one inclusion probability (one stratum's sampling fraction)."""
    keys = np.round(weights, 9)
    return [np.flatnonzero(keys == key) for key in np.unique(keys)]


def design_terms(weights: np.ndarray, groups: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Per group: the Hájek share :math:`W_g` and the variance factor :math:`c_g = W_g^2 (1 - \\pi_g) / n_g`."""
    sizes = np.array([weights[g].sum() for g in groups])
    shares = sizes / sizes.sum()
    factors = np.array([shares[k] ** 2 * (1 - 1 / weights[g][0]) / len(g) for k, g in enumerate(groups)])
    return shares, factors


def within_covariances(
    values_a: np.ndarray, values_b: np.ndarray, groups: list[np.ndarray], pooled: float
) -> np.ndarray:
    """Each group's sample covariance (ddof 1) of a and b; a group of one item takes ``pooled``."""
    out = []
    for g in groups:
        if len(g) < 2:
            out.append(pooled)
            continue
        a, b = values_a[g], values_b[g]
        out.append(float(((a - a.mean()) * (b - b.mean())).sum() / (len(g) - 1)))
    return np.array(out)


def pooled_covariance(a: np.ndarray, b: np.ndarray) -> float:
    """The sample covariance of a and b over all the labelled items (ddof 1)."""
    return float(((a - a.mean()) * (b - b.mean())).sum() / (len(a) - 1))
