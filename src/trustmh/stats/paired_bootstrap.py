r"""Paired bootstrap of the difference between two models' scores on the items both answered.

Two models A and B are scored on the same items, in one or more tasks. In task
:math:`t` the items both have a value for are :math:`i = 1..n_t`, with per-item values
:math:`a_{t,i}` and :math:`b_{t,i}` (e.g. 1/0 for right/wrong) and differences
:math:`d_{t,i} = a_{t,i} - b_{t,i}`. The headline is a mean over tasks of per-task means, so
the difference of headlines on the shared items is

.. math::  D = \frac{1}{T} \sum_t \bar d_t, \qquad \bar d_t = \frac{1}{n_t} \sum_i d_{t,i}.

A replicate draws, independently in every task, :math:`n_t` items with replacement — the
*same* items for both models, which is what makes it paired — and recomputes :math:`D^*`
(all replicates at once: counts matrix times differences, :mod:`trustmh.stats.bootstrap`).
The 95% percentile interval of :math:`D^*` excluding 0 separates the two models.

Why paired: item difficulty moves both models' scores together, so the variance of
:math:`\bar d_t` is :math:`(\sigma_a^2 + \sigma_b^2 - 2\,\mathrm{cov}(a, b)) / n_t`; comparing
two independent CIs ignores the covariance and ties models the data does separate.

An item where either value is not finite (an answer the headline leaves out) is not
shared. A task with no shared item makes the difference undefined (``None``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from trustmh.stats.bootstrap import percentile_ci, resample_counts
from trustmh.stats.intervals import DEFAULT_BOOTSTRAP, DEFAULT_SEED


@dataclass(frozen=True)
class PairedDifference:
    """``D`` (A minus B) with its paired-bootstrap 95% CI over ``n`` shared items."""

    difference: float
    ci_low: float
    ci_high: float
    n: int

    @property
    def separated(self) -> bool:
        """The interval excludes 0: the data tell the two models apart."""
        return bool(self.ci_low > 0 or self.ci_high < 0)


def paired_bootstrap_difference(
    tasks: Sequence[tuple[Sequence[float] | np.ndarray, Sequence[float] | np.ndarray]],
    n_boot: int = DEFAULT_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
    alpha: float = 0.05,
) -> PairedDifference | None:
    """:math:`D` and its percentile interval (see the module docstring).

    ``tasks`` holds, per task, the two models' values on the same items in the same order
    (``a[i]`` and ``b[i]`` belong to one item). ``None`` when there is no task or a task
    has no item with both values finite.
    """
    if not tasks or n_boot <= 0:
        return None
    rng = np.random.default_rng(seed)
    point = 0.0
    replicates = np.zeros(n_boot)
    shared = 0
    for a, b in tasks:
        x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        if x.shape != y.shape:
            raise ValueError(f"paired values differ in length: {x.shape} vs {y.shape}")
        d = (x - y)[np.isfinite(x) & np.isfinite(y)]
        if d.size == 0:
            return None
        point += d.mean()
        replicates += resample_counts(d.size, n_boot, rng) @ d / d.size
        shared += d.size
    count = len(tasks)
    low, high = percentile_ci((replicates / count)[:, None], alpha)
    return PairedDifference(point / count, float(low[0]), float(high[0]), shared)
