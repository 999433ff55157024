r"""Krippendorff's alpha for interval and nominal data, vectorised, from per-unit sums.

With a reliability matrix of shape ``(coders, units)`` (NaN = not rated), only *pairable*
units (rated by at least two coders) count. For unit :math:`u` with :math:`m_u` values,
let :math:`n = \sum_u m_u` over pairable units and :math:`\alpha = 1 - D_o / D_e`.

**Interval** (:math:`\delta^2(a, b) = (a - b)^2`):

.. math::
    D_o = \frac1n \sum_u \frac{1}{m_u - 1} \sum_{c \ne k} (v_{uc} - v_{uk})^2, \qquad
    D_e = \frac{1}{n(n-1)} \sum_{i \ne j} (v_i - v_j)^2

and both pair sums have the closed form
:math:`\sum_{i \ne j} (v_i - v_j)^2 = 2 m \sum v^2 - 2 (\sum v)^2`, so no pair is ever
enumerated.

**Nominal** (:math:`\delta = 0` for equal labels, 1 otherwise), with :math:`n_{uc}` the number
of values :math:`c` in unit :math:`u` and :math:`n_c = \sum_u n_{uc}`:

.. math::
    \alpha = 1 - (n - 1) \frac{\sum_u (m_u^2 - \sum_c n_{uc}^2) / (m_u - 1)}{n^2 - \sum_c n_c^2}

Both depend on the data only through per-unit sums, so the alpha of any resample of units
(a bootstrap replicate) is the same formula on ``counts @ unit_sums``
(:mod:`trustmh.stats.bootstrap`). They equal ``krippendorff.alpha(...,
level_of_measurement="interval" | "nominal")`` (Krippendorff 2011, "Computing Krippendorff's
alpha-reliability").
"""

from __future__ import annotations

import numpy as np

from trustmh.stats.bootstrap import percentile_ci, resample_counts, resampled_sums
from trustmh.stats.intervals import DEFAULT_BOOTSTRAP, DEFAULT_SEED, Estimate


def _pair_sq_sum(
    count: np.ndarray | float, total: np.ndarray | float, total_sq: np.ndarray | float
) -> np.ndarray | float:
    return 2 * count * total_sq - 2 * total * total


def interval_unit_sums(reliability_data: np.ndarray) -> np.ndarray:
    r"""Per unit: :math:`(m_u, \sum v, \sum v^2, \frac{1}{m_u-1}\sum_{c\ne k}(v_c-v_k)^2)`; a row of
    zeros for a unit that is not pairable (it adds nothing to any sum)."""
    data = np.asarray(reliability_data, dtype=float)
    valid = np.isfinite(data)
    v = np.where(valid, data, 0.0)
    m_u = valid.sum(axis=0).astype(float)
    s_u = v.sum(axis=0)
    ss_u = (v**2).sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        within = _pair_sq_sum(m_u, s_u, ss_u) / (m_u - 1)
    sums = np.column_stack([m_u, s_u, ss_u, within])
    return np.where((m_u >= 2)[:, None], sums, 0.0)


def interval_alpha_from_sums(sums: np.ndarray) -> np.ndarray:
    """Interval alpha from summed :func:`interval_unit_sums` (any leading axes); NaN if undefined."""
    sums = np.asarray(sums, dtype=float)
    n, s, ss, within = sums[..., 0], sums[..., 1], sums[..., 2], sums[..., 3]
    with np.errstate(divide="ignore", invalid="ignore"):
        d_o = within / n
        d_e = _pair_sq_sum(n, s, ss) / (n * (n - 1))
        return np.where((n >= 2) & (d_e > 0), 1.0 - d_o / d_e, np.nan)


def interval_alpha(reliability_data: np.ndarray) -> float:
    """Krippendorff's alpha (interval) of a ``(coders, units)`` matrix; NaN = missing."""
    sums = interval_unit_sums(reliability_data)
    return float(interval_alpha_from_sums(sums.sum(axis=0))) if sums.shape[0] else float("nan")


def nominal_unit_sums(reliability_data: np.ndarray, n_categories: int) -> np.ndarray:
    r"""Per unit: :math:`(n_{u1}, \dots, n_{uK}, m_u, (m_u^2 - \sum_c n_{uc}^2)/(m_u-1))`; zeros
    for a unit that is not pairable. Values are integer codes ``0..n_categories-1``; NaN = not rated.
    """
    data = np.asarray(reliability_data, dtype=float)
    counts = np.stack([(data == k).sum(axis=0) for k in range(n_categories)], axis=1).astype(float)
    m_u = counts.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        disagree = (m_u * m_u - (counts * counts).sum(axis=1)) / (m_u - 1)
    sums = np.column_stack([counts, m_u, disagree])
    return np.where((m_u >= 2)[:, None], sums, 0.0)


def nominal_alpha_from_sums(sums: np.ndarray) -> np.ndarray:
    """Nominal alpha from summed :func:`nominal_unit_sums` (any leading axes); NaN if undefined."""
    sums = np.asarray(sums, dtype=float)
    n_c, n, disagree = sums[..., :-2], sums[..., -2], sums[..., -1]
    with np.errstate(divide="ignore", invalid="ignore"):
        expected = n * n - (n_c * n_c).sum(axis=-1)
        return np.where((n >= 2) & (expected > 0), 1.0 - (n - 1) * disagree / expected, np.nan)


def nominal_alpha(reliability_data: np.ndarray, n_categories: int | None = None) -> float:
    """Krippendorff's alpha (nominal) of a ``(coders, units)`` matrix of integer codes ``0..K-1``; NaN = missing
    (any other labels: :func:`alpha_estimate` codes them)."""
    data = np.asarray(reliability_data, dtype=float)
    if n_categories is None:
        finite = data[np.isfinite(data)]
        n_categories = int(finite.max()) + 1 if finite.size else 0
    sums = nominal_unit_sums(data, n_categories)
    return float(nominal_alpha_from_sums(sums.sum(axis=0))) if sums.shape[0] else float("nan")


def alpha_estimate(
    reliability_data: np.ndarray, level: str, n_boot: int = DEFAULT_BOOTSTRAP, seed: int = DEFAULT_SEED
) -> Estimate:
    """Krippendorff's alpha (``interval`` or ``nominal``) with a percentile bootstrap CI over units.

    ``n`` is the number of pairable units (rated by at least two coders); a replicate resamples
    them with replacement, and its alpha is the formula above on ``counts @ unit_sums``.
    Undefined replicates (nothing to disagree about) are dropped.
    """
    data = np.asarray(reliability_data, dtype=float)
    if not np.isfinite(data).any():  # every rating missing (e.g. a panel whose votes all went unparsed)
        return Estimate(float("nan"), 0)
    if level == "interval":
        sums, from_sums = interval_unit_sums(data), interval_alpha_from_sums
    elif level == "nominal":
        finite = data[np.isfinite(data)]
        codes = {value: code for code, value in enumerate(np.unique(finite))}
        coded = np.vectorize(lambda v: codes.get(v, np.nan), otypes=[float])(data) if finite.size else data
        sums, from_sums = nominal_unit_sums(coded, len(codes)), nominal_alpha_from_sums
    else:
        raise ValueError(f"level must be 'interval' or 'nominal', not {level!r}")
    sums = sums[sums.any(axis=1)]  # pairable units only
    units = sums.shape[0]
    if units == 0:
        return Estimate(float("nan"), 0)
    value = float(from_sums(sums.sum(axis=0)))
    if units < 2 or n_boot <= 0:
        return Estimate(value, units)
    low, high = percentile_ci(from_sums(resampled_sums(resample_counts(units, n_boot, seed), sums))[:, None])
    return Estimate(value, units, float(low[0]), float(high[0]))
