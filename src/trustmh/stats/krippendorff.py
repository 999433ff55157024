r"""Krippendorff's alpha for interval data, vectorised.

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
