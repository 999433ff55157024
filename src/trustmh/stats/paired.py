r"""Agreement between two raters from paired sufficient statistics ("moments").

Every statistic of a human rating ``x`` against a judge rating ``y`` that trustmh reports
(means, bias, MSE, Pearson's r, Lin's CCC, Bland–Altman limits and the two-rater ICCs)
depends on the data only through six sums

.. math:: m = (n,\ \textstyle\sum x,\ \sum y,\ \sum x^2,\ \sum y^2,\ \sum xy).

Working from these sums is what makes the bootstrap cheap: the sums of a resample are a
weighted sum of per-cluster sums, so 1,000 replicates are one matrix product
(``counts @ cluster_moments``) instead of 1,000 passes over the data. All functions are
vectorised over any leading axes; the moment axis is the last one.
"""

from __future__ import annotations

import numpy as np

N, SX, SY, SXX, SYY, SXY = range(6)
N_MOMENTS = 6
LOA_Z = 1.96


def pair_moments(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
    """Sums ``(n, Σx, Σy, Σx², Σy², Σxy)`` over ``axis``, skipping pairs with a NaN.

    The result has the reduced shape plus a trailing axis of length 6.
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    valid = np.isfinite(x) & np.isfinite(y)
    x0 = np.where(valid, x, 0.0)
    y0 = np.where(valid, y, 0.0)
    parts = (valid.astype(float), x0, y0, x0 * x0, y0 * y0, x0 * y0)
    return np.stack([p.sum(axis=axis) for p in parts], axis=-1)


def _safe_div(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


def summarize(m: np.ndarray) -> dict[str, np.ndarray]:
    r"""All paired statistics from moments ``m`` (shape ``(..., 6)``).

    With :math:`\bar x, \bar y` the means, :math:`s_x^2, s_y^2, s_{xy}` the sample
    (co)variances (divisor :math:`n-1`) and :math:`d = y - x` (judge minus human):

    * ``bias`` :math:`= \bar d = \bar y - \bar x`; ``mse`` :math:`= \frac1n\sum d_i^2`.
    * ``pearson_r`` :math:`= s_{xy} / (s_x s_y)`.
    * ``ccc`` (Lin 1989) :math:`= 2\sigma_{xy} / (\sigma_x^2 + \sigma_y^2 + (\bar x-\bar y)^2)`
      with population (divisor :math:`n`) moments :math:`\sigma`.
    * Bland–Altman: ``ba_mean_diff`` :math:`= \bar d`, ``ba_loa`` :math:`= \bar d \pm 1.96\,s_d`
      where :math:`s_d^2 = s_x^2 + s_y^2 - 2 s_{xy}`.
    * ICCs for :math:`k = 2` raters (McGraw & Wong 1996, two-way model, single rater),
      from the ANOVA mean squares of the :math:`n \times 2` table:
      :math:`MS_R = (s_x^2+s_y^2+2s_{xy})/2` (subjects),
      :math:`MS_E = (s_x^2+s_y^2-2s_{xy})/2` (residual),
      :math:`MS_C = n(\bar x-\bar y)^2/2` (raters), giving

      .. math::
          ICC(C,1) = \frac{MS_R - MS_E}{MS_R + MS_E} = \frac{2 s_{xy}}{s_x^2 + s_y^2}

          ICC(A,1) = \frac{MS_R - MS_E}{MS_R + MS_E + \frac{2}{n}(MS_C - MS_E)}

      ICC(C,1) ignores a constant offset between raters (consistency); ICC(A,1) penalises
      it (absolute agreement). They equal pingouin's ICC3 and ICC2 respectively.

    Anything undefined (``n < 2``, zero variance) is NaN.
    """
    # Undefined cases (n < 2, zero variance) become NaN through the arithmetic itself.
    with np.errstate(invalid="ignore", divide="ignore"):
        m = np.asarray(m, dtype=float)
        n = m[..., N]
        mean_x = _safe_div(m[..., SX], n)
        mean_y = _safe_div(m[..., SY], n)
        # Centred sums of squares and cross-products.
        cxx = m[..., SXX] - mean_x * m[..., SX]
        cyy = m[..., SYY] - mean_y * m[..., SY]
        cxy = m[..., SXY] - mean_x * m[..., SY]
        cxx = np.maximum(cxx, 0.0)
        cyy = np.maximum(cyy, 0.0)
        nm1 = np.where(n >= 2, n - 1, np.nan)
        var_x, var_y, cov = cxx / nm1, cyy / nm1, cxy / nm1
        diff = mean_y - mean_x
        var_d = np.maximum(var_x + var_y - 2 * cov, 0.0)
        sd_d = np.sqrt(var_d)
        ms_r = (var_x + var_y + 2 * cov) / 2
        ms_e = var_d / 2
        ms_c = n * diff * diff / 2
        return {
            "n": n,
            "human_mean": mean_x,
            "judge_mean": mean_y,
            "bias": diff,
            "mse": _safe_div(m[..., SXX] + m[..., SYY] - 2 * m[..., SXY], n),
            "pearson_r": _safe_div(cov, np.sqrt(var_x * var_y)),
            "ccc": _safe_div(2 * cxy / n, (cxx + cyy) / n + diff * diff),
            "ba_mean_diff": diff,
            "ba_loa_low": diff - LOA_Z * sd_d,
            "ba_loa_high": diff + LOA_Z * sd_d,
            "icc_c1": _safe_div(ms_r - ms_e, ms_r + ms_e),
            "icc_a1": _safe_div(ms_r - ms_e, ms_r + ms_e + 2.0 / n * (ms_c - ms_e)),
        }


def icc_c1_a1(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """ICC(C,1) and ICC(A,1) of two raters ``x`` and ``y`` (pairs with a NaN skipped)."""
    s = summarize(pair_moments(x, y))
    return float(s["icc_c1"]), float(s["icc_a1"])
