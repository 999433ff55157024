r"""Chance-corrected agreement among raters with agreement weights: Gwet's AC1/AC2, Fleiss'
generalised kappa and Cohen's weighted kappa, from per-item sums (so a bootstrap replicate is
one matrix product, :mod:`trustmh.stats.bootstrap`).

Ratings are a ``(items, raters)`` matrix of category codes ``0..q-1`` (NaN = not rated).
:math:`w_{kl}` are agreement weights (:func:`agreement_weights`: 1 on the diagonal; identity
for labels, linear or quadratic for a scale). For item :math:`i`, :math:`r_{ik}` is the number
of raters choosing :math:`k`, :math:`r_i = \sum_k r_{ik}` and :math:`r^\ast_{ik} = \sum_l w_{kl} r_{il}`.

.. math::
    p_a = \frac{1}{n_2} \sum_{i: r_i \ge 2} \sum_k \frac{r_{ik} (r^\ast_{ik} - 1)}{r_i (r_i - 1)},
    \qquad \pi_k = \frac{1}{n_1} \sum_{i: r_i \ge 1} \frac{r_{ik}}{r_i}

    \text{Gwet: } p_e = \frac{\sum_{kl} w_{kl}}{q (q - 1)} \sum_k \pi_k (1 - \pi_k), \qquad
    \text{Fleiss: } p_e = \sum_{kl} w_{kl}\, \pi_k \pi_l, \qquad
    \text{coefficient} = \frac{p_a - p_e}{1 - p_e}

(:math:`n_2` items rated at least twice, :math:`n_1` at least once). With identity weights
Gwet's is AC1 (Gwet 2008), the coefficient that stays informative when one category is rare
(where kappa collapses: a missed crisis), and Fleiss' is Fleiss' kappa generalised to missing
ratings. Cohen's weighted kappa of two raters over the items both rated:
:math:`p_o = \frac1n \sum_i w_{a_i b_i}`, :math:`p_e = \sum_{kl} w_{kl}\, p^a_k p^b_l`.
All three equal ``irrCAC``'s ``CAC(...).gwet()``, ``.fleiss()`` and ``.conger()`` (two raters)
on the same tables (tests/stats/test_chance_agreement.py).
"""

from __future__ import annotations

import numpy as np

WEIGHTS = ("identity", "linear", "quadratic")


def agreement_weights(values: np.ndarray | list[float], kind: str) -> np.ndarray:
    r"""``(q, q)`` agreement weights over the category values (irrCAC's): identity
    :math:`[k = l]`, linear :math:`1 - |x_k - x_l| / (x_{max} - x_{min})`, quadratic
    :math:`1 - (x_k - x_l)^2 / (x_{max} - x_{min})^2`."""
    x = np.asarray(values, dtype=float)
    if kind == "identity" or len(x) < 2:
        return np.eye(len(x))
    spread = x.max() - x.min()
    distance = np.abs(x[:, None] - x[None, :]) / spread
    if kind == "linear":
        return 1.0 - distance
    if kind == "quadratic":
        return 1.0 - distance**2
    raise ValueError(f"weights must be one of {', '.join(WEIGHTS)}, not {kind!r}")


def _counts(ratings: np.ndarray, q: int) -> np.ndarray:
    data = np.asarray(ratings, dtype=float)
    return np.stack([(data == k).sum(axis=1) for k in range(q)], axis=1).astype(float)


def multi_rater_unit_sums(ratings: np.ndarray, weights: np.ndarray) -> np.ndarray:
    r"""Per item :math:`(p_{a,i} [r_i \ge 2], [r_i \ge 2], r_{i1}/r_i, \dots, r_{iq}/r_i, [r_i \ge 1])`
    (zeros where undefined); :func:`gwet_from_sums` and :func:`fleiss_from_sums` read their sums."""
    q = weights.shape[0]
    counts = _counts(ratings, q)
    r = counts.sum(axis=1)
    weighted = counts @ weights.T
    pairs = r * (r - 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        p_a = np.where(r >= 2, (counts * (weighted - 1)).sum(axis=1) / pairs, 0.0)
        shares = np.where((r >= 1)[:, None], counts / r[:, None], 0.0)
    return np.column_stack([p_a, (r >= 2).astype(float), shares, (r >= 1).astype(float)])


def _pa_pi(sums: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    with np.errstate(divide="ignore", invalid="ignore"):
        return sums[..., 0] / sums[..., 1], sums[..., 2:-1] / sums[..., -1:]


def _coefficient(p_a: np.ndarray, p_e: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(p_e < 1.0, (p_a - p_e) / (1.0 - p_e), np.nan)


def gwet_from_sums(sums: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Gwet's AC1 (identity weights) / AC2 from summed :func:`multi_rater_unit_sums` (any leading axes)."""
    q = weights.shape[0]
    if q < 2:
        return np.full(np.shape(sums)[:-1], np.nan)
    p_a, pi = _pa_pi(np.asarray(sums, dtype=float))
    p_e = weights.sum() * (pi * (1 - pi)).sum(axis=-1) / (q * (q - 1))
    return _coefficient(p_a, p_e)


def fleiss_from_sums(sums: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Fleiss' (generalised, weighted) kappa from summed :func:`multi_rater_unit_sums`."""
    p_a, pi = _pa_pi(np.asarray(sums, dtype=float))
    p_e = np.einsum("...k,kl,...l->...", pi, weights, pi)
    return _coefficient(p_a, p_e)


def pair_unit_sums(a: np.ndarray, b: np.ndarray, weights: np.ndarray) -> np.ndarray:
    r"""Per item rated by both: :math:`(w_{a_i b_i}, [a_i = 0..q-1], [b_i = 0..q-1], 1)`; zeros otherwise."""
    q = weights.shape[0]
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    both = np.isfinite(a) & np.isfinite(b)
    ai, bi = np.where(both, a, 0).astype(int), np.where(both, b, 0).astype(int)
    codes = np.arange(q)
    rows = np.column_stack(
        [weights[ai, bi], (ai[:, None] == codes).astype(float), (bi[:, None] == codes).astype(float), np.ones(len(a))]
    )
    return np.where(both[:, None], rows, 0.0)


def cohen_weighted_from_sums(sums: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Cohen's weighted kappa from summed :func:`pair_unit_sums` (any leading axes)."""
    q = weights.shape[0]
    sums = np.asarray(sums, dtype=float)
    n = sums[..., -1]
    with np.errstate(divide="ignore", invalid="ignore"):
        p_o = sums[..., 0] / n
        first, second = sums[..., 1 : 1 + q] / n[..., None], sums[..., 1 + q : 1 + 2 * q] / n[..., None]
        p_e = np.einsum("...k,kl,...l->...", first, weights, second)
    return np.where(n > 0, _coefficient(p_o, p_e), np.nan)


def gwet_ac(ratings: np.ndarray, weights: np.ndarray) -> float:
    """Gwet's AC1/AC2 of a ``(items, raters)`` code matrix (module docstring)."""
    return float(gwet_from_sums(multi_rater_unit_sums(ratings, weights).sum(axis=0), weights))


def fleiss_weighted(ratings: np.ndarray, weights: np.ndarray) -> float:
    """Fleiss' generalised kappa of a ``(items, raters)`` code matrix (module docstring)."""
    return float(fleiss_from_sums(multi_rater_unit_sums(ratings, weights).sum(axis=0), weights))


def cohen_weighted(a: np.ndarray, b: np.ndarray, weights: np.ndarray) -> float:
    """Cohen's weighted kappa of two raters' codes over the items both rated (module docstring)."""
    return float(cohen_weighted_from_sums(pair_unit_sums(a, b, weights).sum(axis=0), weights))


def confusion_matrix(a: np.ndarray, b: np.ndarray, q: int) -> np.ndarray:
    """``(q, q)`` counts of items rated ``k`` by the first rater and ``l`` by the second (both rated)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    both = np.isfinite(a) & np.isfinite(b)
    out = np.zeros((q, q), dtype=int)
    np.add.at(out, (a[both].astype(int), b[both].astype(int)), 1)
    return out
