"""Epoch reducer that keeps trustmh's "unparsed" convention.

inspect's default ``mean`` reducer runs even with one epoch and converts a ``None`` field to
``0.0`` (``value_to_float``), so an unparsed answer would be scored as a wrong one / a
compliance and ``<metric>_unparsed`` would always be 0. Tasks pass
``epochs=Epochs(1, reducer=unparsed_aware_mean())`` to keep ``None`` as ``None``.
"""

from __future__ import annotations

from statistics import mean

from inspect_ai.scorer import Score, ScoreReducer, score_reducer


def _reduce_field(values: list[object]) -> object:
    numbers = [float(v) for v in values if isinstance(v, (int, float))]
    if numbers:
        return mean(numbers)
    present = [v for v in values if v is not None]
    # Text fields (e.g. a judge's free answer) keep the first epoch's value; all-None stays None.
    return present[0] if present else None


@score_reducer(name="trustmh/unparsed_aware_mean")
def unparsed_aware_mean() -> ScoreReducer:
    """Per-field mean over epochs, skipping ``None``; a field that is ``None`` in every epoch stays ``None``."""

    def reduce(scores: list[Score]) -> Score:
        if len(scores) == 1:
            return scores[0]
        first = scores[0]
        if not isinstance(first.value, dict):
            numbers = [float(s.value) for s in scores if isinstance(s.value, (int, float))]
            return Score(value=mean(numbers) if numbers else first.value, answer=first.answer, explanation=first.explanation, metadata=first.metadata)
        keys = dict.fromkeys(k for s in scores if isinstance(s.value, dict) for k in s.value)
        value = {k: _reduce_field([s.value.get(k) for s in scores if isinstance(s.value, dict) and k in s.value]) for k in keys}
        return Score(value=value, answer=first.answer, explanation=first.explanation, metadata=first.metadata)  # type: ignore[arg-type]

    return reduce
