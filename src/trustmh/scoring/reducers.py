"""The default epoch reducer of every trustmh task: a per-field mean that keeps *unparsed* apart.

inspect reduces each sample's scores over epochs (also with a single epoch) before metrics
see them. :func:`trustmh_mean` averages each numeric field over the epochs where it was
parsed and leaves it :data:`~trustmh.scoring.unparsed.UNPARSED` when it was unparsed in
every epoch, so :func:`trustmh.scoring.metrics.field_values` still counts it as unparsed.
A label field (a string, e.g. a classification's ``pred``) takes its most common value over
the parsed epochs (ties: the earliest). Unlike inspect's own reducers it also accepts epochs
that score different keys (a field missing in an epoch is reduced over the others).

inspect's reducers (``--epochs-reducer mean|median|mode|max|pass_at_k|…``) keep unparsed
apart too, because trustmh scores mark it as NaN (see :mod:`trustmh.scoring.unparsed`).
"""

from __future__ import annotations

import statistics
from collections import Counter

from inspect_ai.scorer import Score, ScoreReducer, Value, score_reducer

from trustmh.scoring.unparsed import UNPARSED, is_unparsed


def _reduce_field(values: list[object]) -> str | int | float | bool | None:
    parsed = [v for v in values if not is_unparsed(v)]
    strings = [v for v in parsed if isinstance(v, str)]
    if strings:
        return Counter(strings).most_common(1)[0][0]  # Counter keeps first-seen order on ties
    numbers = [float(v) for v in parsed if isinstance(v, (int, float))]
    return statistics.mean(numbers) if numbers else UNPARSED


def reduce_values(values: list[Value]) -> Value:
    """Reduce one sample's score values over epochs (see the module docstring)."""
    dicts = [v for v in values if isinstance(v, dict)]
    if dicts:
        keys: list[str] = []
        for value in dicts:
            keys += [k for k in value if k not in keys]
        return {key: _reduce_field([value[key] for value in dicts if key in value]) for key in keys}
    return _reduce_field(list(values))  # type: ignore[return-value]


@score_reducer(name="trustmh_mean")
def trustmh_mean() -> ScoreReducer:
    """Mean over epochs per field; a field unparsed in every epoch stays unparsed (NaN)."""

    def reduce(scores: list[Score]) -> Score:
        if not scores:
            return Score(value=UNPARSED)
        first = scores[0]
        if len(scores) == 1:
            return Score(value=first.value, answer=first.answer, explanation=first.explanation, metadata=first.metadata)

        def same(attr: str) -> str | None:
            return getattr(first, attr) if len({getattr(s, attr) for s in scores}) == 1 else None

        return Score(
            value=reduce_values([score.value for score in scores]),
            answer=same("answer"),
            explanation=same("explanation"),
            metadata=first.metadata,
        )

    return reduce
