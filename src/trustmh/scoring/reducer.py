"""The epoch reducer of every trustmh task.

inspect's default reducer converts each value to float before averaging epochs, and its
conversion turns ``None`` into ``0.0`` — an unparsed answer would silently become a wrong
(or, for error rates, a *good*) answer. This reducer keeps ``None`` as unparsed.
"""

from __future__ import annotations

import math

from inspect_ai.scorer import Score, ScoreReducer, score_reducer


def _mean_of_parsed(values: list[object]) -> float | None:
    numbers = [float(v) for v in values if isinstance(v, (int, float)) and not isinstance(v, bool) and not math.isnan(float(v))]
    numbers += [float(v) for v in values if isinstance(v, bool)]
    return sum(numbers) / len(numbers) if numbers else None


@score_reducer(name="trustmh/keep_unparsed")
def keep_unparsed() -> ScoreReducer:
    """One epoch: the score unchanged. Several: per field, the mean of parsed values."""

    def reduce(scores: list[Score]) -> Score:
        if len(scores) == 1:
            return scores[0]
        first = scores[0]
        if not isinstance(first.value, dict):
            return Score(value=_mean_of_parsed([s.value for s in scores]), answer=first.answer, metadata=first.metadata)  # type: ignore[arg-type]
        keys = [k for s in scores if isinstance(s.value, dict) for k in s.value]
        merged = {
            key: _mean_of_parsed([s.value.get(key) for s in scores if isinstance(s.value, dict) and key in s.value])
            for key in dict.fromkeys(keys)
        }
        return Score(value=merged, answer=first.answer, explanation=first.explanation, metadata=first.metadata)

    return reduce
