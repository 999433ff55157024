"""inspect metrics that report n, a confidence interval and the unparsed count.

Each factory returns an inspect ``Metric`` whose value is a flat dict, which inspect expands
into separate metrics: ``<name>``, ``<name>_ci_low``, ``<name>_ci_high``, ``<name>_n`` and
``<name>_unparsed``. :mod:`trustmh.results` folds them back into one row per metric.

Metrics read the epoch-reduced sample scores: one observation per sample, because epochs
of one sample are not independent observations. Every trustmh task reduces epochs with
:func:`trustmh.scoring.reducers.trustmh_mean`, which keeps ``None`` (unparsed) apart; inspect's
default reducer would turn it into ``0.0``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np
from inspect_ai.scorer import Metric, SampleScore, metric

from trustmh.stats import Estimate, mean_estimate, proportion_estimate
from trustmh.stats.correlation import pearson_estimate

NOT_SCORED = float("nan")
# See the module docstring: our metrics read the raw per-sample scores.


def field_values(scores: Iterable[SampleScore], field: str) -> tuple[np.ndarray, int]:
    """Values of ``field`` over the samples where it applies, and how many were unparsed.

    Unparsed observations (``None``) are excluded from the returned array.
    """
    values: list[float] = []
    unparsed = 0
    for sample_score in scores:
        value = sample_score.score.value
        if not isinstance(value, dict) or field not in value:
            continue
        if value[field] is None:
            unparsed += 1
        else:
            values.append(float(value[field]))
    return np.asarray(values, dtype=float), unparsed


def _report(name: str, estimate: Estimate, unparsed: int) -> dict[str, float]:
    out = estimate.as_dict(name)
    out[f"{name}_unparsed"] = float(unparsed)
    return out


def _summary_metric(field: str, name: str, estimator: Callable[[np.ndarray], Estimate]) -> Metric:
    def compute(scores: list[SampleScore]) -> dict[str, float]:
        values, unparsed = field_values(scores, field)
        return _report(name, estimator(values), unparsed)

    return compute


@metric(name="trustmh/rate")
def rate(field: str, name: str | None = None) -> Metric:
    """Share of samples with ``field == 1`` (Wilson 95% CI)."""
    return _summary_metric(field, name or field, proportion_estimate)


@metric(name="trustmh/mean")
def mean(field: str, name: str | None = None) -> Metric:
    """Mean of ``field`` (percentile bootstrap 95% CI)."""
    return _summary_metric(field, name or field, mean_estimate)


@metric(name="trustmh/pearson")
def pearson(predicted: str, gold: str, name: str = "pearson_r") -> Metric:
    """Pearson r between two fields of each score (pair bootstrap 95% CI)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        pairs: list[tuple[float, float]] = []
        unparsed = 0
        for sample_score in scores:
            value = sample_score.score.value
            if not isinstance(value, dict) or predicted not in value:
                continue
            if value[predicted] is None or value.get(gold) is None:
                unparsed += 1
                continue
            pairs.append((float(value[predicted]), float(value[gold])))
        arr = np.asarray(pairs, dtype=float).reshape(-1, 2)
        return _report(name, pearson_estimate(arr[:, 0], arr[:, 1]), unparsed)

    return compute


@metric(name="trustmh/grouped")
def grouped(field: str, by: str, name: str | None = None, kind: str = "rate") -> Metric:
    """``rate`` or ``mean`` of ``field`` broken down by the sample metadata key ``by``.

    Keys look like ``<name>[<by>=<group>]`` so reports can pivot them back.
    """
    estimator = proportion_estimate if kind == "rate" else mean_estimate
    label = name or field

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        groups: dict[str, list[SampleScore]] = {}
        for sample_score in scores:
            group = (sample_score.sample_metadata or {}).get(by)
            if group is not None:
                groups.setdefault(str(group), []).append(sample_score)
        out: dict[str, float] = {}
        for group in sorted(groups):
            values, unparsed = field_values(groups[group], field)
            out.update(_report(f"{label}[{by}={group}]", estimator(values), unparsed))
        return out

    return compute
