"""The epoch reducer of every trustmh task: a mean that keeps *unparsed* apart.

inspect reduces each sample's scores over epochs (also with a single epoch) before metrics
see them. Its default ``mean`` reducer turns a ``None`` field into ``0.0`` (with a
warning), which would count an unparsed answer as wrong. :func:`trustmh_mean` averages
each field over the epochs where it was scored and leaves it ``None`` when it was unparsed
in every epoch, so :func:`trustmh.scoring.metrics.field_values` still counts it as
unparsed. Strings are kept when all epochs agree, else dropped to ``None``.
"""

from __future__ import annotations

import math
import statistics

from inspect_ai.scorer import Score, ScoreReducer, Value, score_reducer


def _reduce_field(values: list[object]) -> str | int | float | bool | None:
    numbers = [float(v) for v in values if isinstance(v, (int, float)) and not (isinstance(v, float) and math.isnan(v))]
    if numbers:
        return statistics.mean(numbers)
    strings = {v for v in values if isinstance(v, str)}
    if len(strings) == 1 and all(isinstance(v, str) for v in values):
        return strings.pop()
    if strings or any(v is None for v in values):
        return None
    return float("nan")


def reduce_values(values: list[Value]) -> Value:
    """Reduce one sample's score values over epochs (see the module docstring)."""
    dicts = [v for v in values if isinstance(v, dict)]
    if dicts:
        keys: list[str] = []
        for value in dicts:
            keys += [k for k in value if k not in keys]
        return {key: _reduce_field([value[key] for value in dicts if key in value]) for key in keys}
    reduced = _reduce_field(list(values))
    return float("nan") if reduced is None else reduced  # type: ignore[return-value]


@score_reducer(name="trustmh_mean")
def trustmh_mean() -> ScoreReducer:
    """Mean over epochs per field; a field unparsed in every epoch stays ``None``."""

    def reduce(scores: list[Score]) -> Score:
        if not scores:
            return Score(value=float("nan"))
        first = scores[0]
        if len(scores) == 1:
            return Score(value=first.value, answer=first.answer, explanation=first.explanation, metadata=first.metadata)
        same = lambda attr: getattr(first, attr) if len({getattr(s, attr) for s in scores}) == 1 else None  # noqa: E731
        return Score(
            value=reduce_values([score.value for score in scores]),
            answer=same("answer"),
            explanation=same("explanation"),
            metadata=first.metadata,
        )

    return reduce
