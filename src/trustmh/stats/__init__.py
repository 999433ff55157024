"""Pure statistics: numpy/scipy only, no framework imports.

Every function documents its formula. Functions take plain arrays and return plain floats or
small dataclasses, so they can be tested against hand-computed values and independent libraries.
"""

from trustmh.stats.intervals import (
    Estimate,
    bootstrap_mean_ci,
    bootstrap_statistic_ci,
    mean_estimate,
    proportion_estimate,
    wilson_interval,
)

__all__ = [
    "Estimate",
    "bootstrap_mean_ci",
    "bootstrap_statistic_ci",
    "mean_estimate",
    "proportion_estimate",
    "wilson_interval",
]
