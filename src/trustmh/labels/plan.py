r"""How many clinician labels a 95% CI of a given width needs, from the PPI variance.

For a field that is a mean or a rate, with :math:`W` the target *full* width of the 95% CI
(high - low) and :math:`z = 1.96`, a simple random sample of :math:`n` labels out of the run's
:math:`N` judged items gives a CI of width :math:`2 z \sqrt{(1 - n/N)\,\sigma^2 / n}`, so

.. math:: n_0 = \left(\frac{2 z \sigma}{W}\right)^2, \qquad n = \frac{n_0}{1 + n_0 / N}

with :math:`\sigma^2` the variance of the labels for the labels alone (classical), and of the
rectifier :math:`Y - \hat\lambda f` for PPI (:mod:`trustmh.stats.ppi`): with the tuned
:math:`\hat\lambda`, :math:`\sigma^2_{PPI} = \sigma^2_Y (1 - \rho^2)` where :math:`\rho` is the
judge-human correlation — the better the judge tracks the clinicians, the fewer labels.

* With pilot labels (``human``): :math:`\sigma^2_Y`, :math:`\hat\lambda` and the rectifier's
  variance are estimated from the labelled items (the mean label of each item).
* Without: the judge's own variance stands in for the labels' (:math:`\sigma^2_Y \approx
  \sigma^2_f`), beside the worst case of the scale (:math:`(high - low)^2 / 4`; 0.25 for a
  rate), and PPI is shown for judge-human correlations 0.5, 0.7 and 0.9 — assumptions, stated
  as such, until pilot labels measure them.

For a rate, each plan also gives how many of its labels would carry the rarer answer
(:math:`n \min(p, 1 - p)`, :math:`p` the pilot labels' rate, else the judge's) and warns below
:data:`trustmh.stats.ppi_design.RELIABLE_RARER_ANSWERS`: too little evidence for a reliable interval of
the rate, whatever its width promises.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from statistics import NormalDist
from typing import Any

import numpy as np

from trustmh.stats.ppi_design import RELIABLE_RARER_ANSWERS

Z95 = NormalDist().inv_cdf(0.975)
ASSUMED_CORRELATIONS = (0.5, 0.7, 0.9)


def labels_needed(variance: float, width: float, population: int) -> int:
    """Labels for a 95% CI of full width ``width`` (module docstring), at most ``population``."""
    if variance <= 0:
        return 2
    first = (2 * Z95 * math.sqrt(variance) / width) ** 2
    return min(population, max(2, math.ceil(first / (1 + first / population))))


@dataclass
class Plan:
    field: str
    width: float
    population: int
    rows: list[dict[str, Any]] = dataclass_field(default_factory=list)  # {"how", "variance", "labels"}
    rate: float | None = None  # a rate's expected share of positives; None for a scale

    def add(self, how: str, variance: float) -> None:
        labels = labels_needed(variance, self.width, self.population)
        row: dict[str, Any] = {"how": how, "variance": variance, "labels": labels}
        if self.rate is not None:
            rarer = labels * min(self.rate, 1 - self.rate)
            row["rarer_answers"] = rarer
            if rarer < RELIABLE_RARER_ANSWERS:
                row["warning"] = (
                    f"about {rarer:.0f} of these labels would give the rarer answer (fewer than "
                    f"{RELIABLE_RARER_ANSWERS}): too few for a reliable interval of the rate; label more"
                )
        self.rows.append(row)

    def to_json(self) -> dict[str, Any]:
        return {
            "field": self.field,
            "target_width": self.width,
            "ci": 0.95,
            "population": self.population,
            "plans": self.rows,
        }


def plan_from_judge(name: str, judged: np.ndarray, width: float, scale: tuple[float, float]) -> Plan:
    """Without pilot labels (module docstring)."""
    plan = Plan(name, width, len(judged), rate=float(np.mean(judged)) if scale == (0.0, 1.0) else None)
    worst = (scale[1] - scale[0]) ** 2 / 4
    judge_var = float(np.var(judged, ddof=1)) if len(judged) > 1 else worst
    plan.add("labels alone, worst case of the scale", worst)
    plan.add("labels alone, if the clinicians vary as the judge does", judge_var)
    for rho in ASSUMED_CORRELATIONS:
        plan.add(f"PPI, if the judge-human correlation is {rho}", judge_var * (1 - rho**2))
    return plan


def plan_from_pilot(name: str, labels: np.ndarray, paired: np.ndarray, population: np.ndarray, width: float) -> Plan:
    """With pilot labels: ``labels`` and ``paired`` judge scores of the labelled items; ``population``
    the judge's scores of every item."""
    binary = bool(np.isin(population, (0.0, 1.0)).all())
    plan = Plan(name, width, len(population), rate=float(np.mean(labels)) if binary else None)
    var_y = float(np.var(labels, ddof=1))
    var_f = float(np.var(paired, ddof=1))
    cov = float(np.cov(labels, paired, ddof=1)[0, 1])
    lam = float(np.clip(cov / var_f, 0.0, 1.0)) if var_f > 0 else 0.0
    rectifier = float(np.var(labels - lam * paired, ddof=1))
    plan.add(f"labels alone (variance of {len(labels)} pilot labels)", var_y)
    plan.add(f"PPI (rectifier variance of the pilot, lambda {lam:.2f})", rectifier)
    return plan
