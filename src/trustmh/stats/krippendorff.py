r"""Krippendorff's alpha for interval and nominal data, vectorised, with a unit bootstrap CI.

With a reliability matrix of shape ``(coders, units)`` (NaN = not rated), only *pairable*
units (rated by at least two coders) count. For unit :math:`u` with :math:`m_u` values,
let :math:`n = \sum_u m_u` over pairable units. With the interval metric
:math:`\delta^2(a, b) = (a - b)^2`:

.. math::
    D_o = \frac1n \sum_u \frac{1}{m_u - 1} \sum_{c \ne k} (v_{uc} - v_{uk})^2, \qquad
    D_e = \frac{1}{n(n-1)} \sum_{i \ne j} (v_i - v_j)^2, \qquad
    \alpha = 1 - \frac{D_o}{D_e}

and both pair sums have the closed form
:math:`\sum_{i \ne j} (v_i - v_j)^2 = 2 m \sum v^2 - 2 (\sum v)^2`, so no pair is ever
enumerated. This equals ``krippendorff.alpha(..., level_of_measurement="interval")``
(Krippendorff 2011, "Computing Krippendorff's alpha-reliability").
"""

from __future__ import annotations

import numpy as np

from trustmh.stats.bootstrap import percentile_ci, resample_counts, resampled_sums
from trustmh.stats.intervals import DEFAULT_BOOTSTRAP, DEFAULT_SEED, Estimate


def _pair_sq_sum(
    count: np.ndarray | float, total: np.ndarray | float, total_sq: np.ndarray | float
) -> np.ndarray | float:
    return 2 * count * total_sq - 2 * total * total


def interval_alpha(reliability_data: np.ndarray) -> float:
    """Krippendorff's alpha (interval) of a ``(coders, units)`` matrix; NaN = missing."""
    data = np.asarray(reliability_data, dtype=float)
    valid = np.isfinite(data)
    v = np.where(valid, data, 0.0)
    m_u = valid.sum(axis=0)
    pairable = m_u >= 2
    if not pairable.any():
        return float("nan")
    m_u = m_u[pairable]
    s_u = v[:, pairable].sum(axis=0)
    ss_u = (v[:, pairable] ** 2).sum(axis=0)
    n = float(m_u.sum())
    d_o = float((_pair_sq_sum(m_u, s_u, ss_u) / (m_u - 1)).sum()) / n
    d_e = float(_pair_sq_sum(n, s_u.sum(), ss_u.sum())) / (n * (n - 1))
    if d_e <= 0:
        return float("nan")
    return 1.0 - d_o / d_e


def _nominal_codes(data: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(valid mask, per-unit category counts (units, categories))`` of a coded matrix."""
    valid = np.isfinite(data)
    categories = np.unique(data[valid])
    counts = np.stack([((data == c) & valid).sum(axis=0) for c in categories], axis=1) if categories.size else None
    return valid, counts if counts is not None else np.zeros((data.shape[1], 0))


def _unit_sums(data: np.ndarray, level: str) -> np.ndarray:
    r"""Per pairable unit, the sums every alpha of ``level`` is a function of (rows = units).

    interval: :math:`(m_u,\ D_u,\ \sum v,\ \sum v^2)`; nominal: :math:`(m_u,\ D_u,\ n_{u1}, \dots, n_{uC})`,
    where :math:`D_u` is the unit's within-unit disagreement sum divided by :math:`m_u - 1`
    (interval: :math:`\sum_{c \ne k}(v_c - v_k)^2/(m_u-1)`; nominal:
    :math:`(m_u^2 - \sum_c n_{uc}^2)/(m_u-1)`, the off-diagonal of the coincidence matrix).
    """
    valid = np.isfinite(data)
    m_u = valid.sum(axis=0).astype(float)
    pairable = m_u >= 2
    if level == "interval":
        v = np.where(valid, data, 0.0)
        s_u, ss_u = v.sum(axis=0), (v**2).sum(axis=0)
        d_u = np.asarray(_pair_sq_sum(m_u, s_u, ss_u)) / np.where(pairable, m_u - 1, 1)
        sums = np.column_stack([m_u, d_u, s_u, ss_u])
    elif level == "nominal":
        _, counts = _nominal_codes(data)
        d_u = (m_u**2 - (counts**2).sum(axis=1)) / np.where(pairable, m_u - 1, 1)
        sums = np.column_stack([m_u, d_u, counts])
    else:
        raise ValueError(f"level must be 'interval' or 'nominal', not {level!r}")
    return sums[pairable]


def _alpha_from_sums(sums: np.ndarray, level: str) -> np.ndarray:
    r""":math:`\alpha = 1 - D_o / D_e` from summed unit sums (vectorised over leading axes).

    :math:`n = \sum m_u`, :math:`D_o = \frac1n \sum_u D_u`; :math:`D_e = (2n\sum v^2 - 2(\sum v)^2)/(n(n-1))`
    (interval) or :math:`D_e = (n^2 - \sum_c n_c^2)/(n(n-1))` with :math:`n_c = \sum_u n_{uc}` (nominal).
    """
    n, d = sums[..., 0], sums[..., 1]
    if level == "interval":
        spread = _pair_sq_sum(n, sums[..., 2], sums[..., 3])
    else:
        spread = n**2 - (sums[..., 2:] ** 2).sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        d_o = d / n
        d_e = np.asarray(spread) / (n * (n - 1))
        return np.where(d_e > 0, 1.0 - d_o / np.where(d_e > 0, d_e, 1.0), np.nan)


def nominal_alpha(reliability_data: np.ndarray) -> float:
    """Krippendorff's alpha (nominal) of a ``(coders, units)`` matrix of category codes; NaN = missing.

    Equals ``krippendorff.alpha(..., level_of_measurement="nominal")``; see :func:`_unit_sums`
    and :func:`_alpha_from_sums` for the formula.
    """
    sums = _unit_sums(np.asarray(reliability_data, dtype=float), "nominal")
    return float(_alpha_from_sums(sums.sum(axis=0), "nominal")) if sums.shape[0] else float("nan")


def alpha_estimate(
    reliability_data: np.ndarray, level: str, n_boot: int = DEFAULT_BOOTSTRAP, seed: int = DEFAULT_SEED
) -> Estimate:
    """Krippendorff's alpha (``interval`` or ``nominal``) with a percentile bootstrap CI over units.

    ``n`` is the number of pairable units (rated by at least two coders). A replicate resamples
    pairable units with replacement; its alpha is a function of summed unit sums, so all
    replicates are one matrix product (:mod:`trustmh.stats.bootstrap`). Replicates with no
    disagreement to expect (:math:`D_e = 0`) are undefined and dropped.
    """
    sums = _unit_sums(np.asarray(reliability_data, dtype=float), level)
    units = sums.shape[0]
    if units == 0:
        return Estimate(float("nan"), 0)
    value = float(_alpha_from_sums(sums.sum(axis=0), level))
    if units < 2:
        return Estimate(value, units)
    replicates = _alpha_from_sums(resampled_sums(resample_counts(units, n_boot, seed), sums), level)
    low, high = percentile_ci(replicates[:, None])
    return Estimate(value, units, float(low[0]), float(high[0]))
