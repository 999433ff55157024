"""The trustmh metric contract: every number with n, a 95% CI, the unparsed count and, where
the upstream benchmark counts a non-answer as wrong, a strict variant.

**What a metric reports.** A metric returns a flat dict, which inspect expands into separate
metrics and :mod:`trustmh.scoring.results` folds back into one row per metric:

* ``<m>``, ``<m>_ci_low``, ``<m>_ci_high``, ``<m>_n``: the estimate over the *parsed* samples;
* ``<m>_unparsed``: how many samples the metric applies to but could not be parsed;
* ``<m>_strict``, ``<m>_strict_ci_low``, ``<m>_strict_ci_high``, ``<m>_strict_n``: only when
  the metric is declared with ``unparsed_as``: the same estimate with every unparsed sample
  scored as ``unparsed_as`` (e.g. ``0.0`` for an accuracy, ``1.0`` for an error rate), i.e.
  the way a benchmark that counts a non-answer as wrong scores it. ``_strict_n`` = ``_n`` +
  ``_unparsed``.

:func:`summarise` builds that dict from parsed values and an unparsed count; every metric in
trustmh (here, :mod:`trustmh.scoring.classification`, the pillars' own) goes through it.

**What a scorer writes.** ``Score(value={field: number | UNPARSED, ...})`` from a scorer
declared with :func:`~trustmh.scoring.unparsed.trustmh_scorer`: a number is an observation
(0/1 for rates), :data:`~trustmh.scoring.unparsed.UNPARSED` (or ``None``, rewritten by the
decorator) an output that could not be read, a missing key "not applicable to this sample".
Class labels (``gold``/``pred``) are label strings, see :mod:`trustmh.scoring.classification`.

**Adding a metric.** Read the per-sample values with :func:`field_values` (or your own reader
that counts unparsed with :func:`~trustmh.scoring.unparsed.is_unparsed`), pick an estimator
from :mod:`trustmh.stats`, return ``summarise(name, values, unparsed, estimator,
unparsed_as)``. Pass ``unparsed_as`` when the upstream benchmark scores a non-answer as a
failure, and say so in the pillar README.

**Epochs.** Metrics read the epoch-reduced sample scores: one observation per sample,
because epochs of one sample are not independent observations. Unparsed survives any
reducer (see :mod:`trustmh.scoring.unparsed`); a sample counts as unparsed when no epoch was
parsed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np
from inspect_ai.scorer import Metric, SampleScore, metric

from trustmh.scoring.unparsed import is_unparsed
from trustmh.stats import Estimate, mean_estimate, proportion_estimate
from trustmh.stats.correlation import pearson_estimate

Estimator = Callable[[np.ndarray], Estimate]


def rate_estimate(values: np.ndarray | list[float]) -> Estimate:
    """A share with a Wilson CI for 0/1 observations; the bootstrap mean when an epoch reducer
    has made some of them fractional (e.g. 0.5 = right in one of two epochs)."""
    x = np.asarray(values, dtype=float)
    if np.isin(x, (0.0, 1.0)).all():
        return proportion_estimate(x)
    return mean_estimate(x)


ESTIMATORS: dict[str, Estimator] = {"rate": rate_estimate, "mean": mean_estimate}


def field_values(scores: Iterable[SampleScore], field: str) -> tuple[np.ndarray, int]:
    """Values of ``field`` over the samples where it applies, and how many were unparsed.

    Unparsed observations are excluded from the returned array.
    """
    values: list[float] = []
    unparsed = 0
    for sample_score in scores:
        value = sample_score.score.value
        if not isinstance(value, dict) or field not in value:
            continue
        if is_unparsed(value[field]):
            unparsed += 1
        else:
            values.append(float(value[field]))
    return np.asarray(values, dtype=float), unparsed


def estimate_metrics(name: str, estimate: Estimate, unparsed: int, strict: Estimate | None = None) -> dict[str, float]:
    """``{name, name_ci_low, name_ci_high, name_n, name_unparsed}`` (+ ``name_strict...``)."""
    out = estimate.as_dict(name)
    out[f"{name}_unparsed"] = float(unparsed)
    if strict is not None:
        out.update(strict.as_dict(f"{name}_strict"))
    return out


def summarise(
    name: str,
    values: np.ndarray | list[float],
    unparsed: int,
    estimator: Estimator = rate_estimate,
    unparsed_as: float | None = None,
) -> dict[str, float]:
    """The one "estimate + CI + n + unparsed (+ strict)" report of ``values`` (parsed only).

    ``unparsed_as``: also report ``<name>_strict``, the estimate with ``unparsed`` more
    observations of that value.
    """
    parsed = np.asarray(values, dtype=float)
    strict = None
    if unparsed_as is not None:
        strict = estimator(np.concatenate([parsed, np.full(unparsed, float(unparsed_as))]))
    return estimate_metrics(name, estimator(parsed), unparsed, strict)


def _field_metric(field: str, name: str, estimator: Estimator, unparsed_as: float | None) -> Metric:
    def compute(scores: list[SampleScore]) -> dict[str, float]:
        values, unparsed = field_values(scores, field)
        return summarise(name, values, unparsed, estimator, unparsed_as)

    return compute


@metric(name="trustmh/rate")
def rate(field: str, name: str | None = None, unparsed_as: float | None = None) -> Metric:
    """Share of samples with ``field == 1`` (Wilson 95% CI); ``unparsed_as``: see :func:`summarise`."""
    return _field_metric(field, name or field, rate_estimate, unparsed_as)


@metric(name="trustmh/mean")
def mean(field: str, name: str | None = None, unparsed_as: float | None = None) -> Metric:
    """Mean of ``field`` (percentile bootstrap 95% CI); ``unparsed_as``: see :func:`summarise`."""
    return _field_metric(field, name or field, mean_estimate, unparsed_as)


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
            if is_unparsed(value[predicted]) or is_unparsed(value.get(gold)):
                unparsed += 1
                continue
            pairs.append((float(value[predicted]), float(value[gold])))
        arr = np.asarray(pairs, dtype=float).reshape(-1, 2)
        return estimate_metrics(name, pearson_estimate(arr[:, 0], arr[:, 1]), unparsed)

    return compute


def group_scores(scores: Iterable[SampleScore], by: str) -> dict[str, list[SampleScore]]:
    """Sample scores by the value of their sample metadata key ``by`` (samples without it left out)."""
    groups: dict[str, list[SampleScore]] = {}
    for sample_score in scores:
        group = (sample_score.sample_metadata or {}).get(by)
        if group is not None:
            groups.setdefault(str(group), []).append(sample_score)
    return groups


@metric(name="trustmh/grouped")
def grouped(
    field: str, by: str, name: str | None = None, kind: str = "rate", unparsed_as: float | None = None
) -> Metric:
    """``rate`` or ``mean`` of ``field`` broken down by the sample metadata key ``by``.

    Keys look like ``<name>[<by>=<group>]`` so reports can pivot them back.
    """
    estimator = ESTIMATORS[kind]
    label = name or field

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        out: dict[str, float] = {}
        groups = group_scores(scores, by)
        for group in sorted(groups):
            values, unparsed = field_values(groups[group], field)
            out.update(summarise(f"{label}[{by}={group}]", values, unparsed, estimator, unparsed_as))
        return out

    return compute
