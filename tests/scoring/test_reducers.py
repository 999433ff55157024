"""The trustmh epoch reducer keeps unparsed fields apart from wrong answers."""

from __future__ import annotations

import math

from inspect_ai.scorer import Score

from trustmh.scoring.reducers import reduce_values, trustmh_mean
from trustmh.scoring.unparsed import UNPARSED, is_unparsed


def test_reduce_values_per_field() -> None:
    reduced = reduce_values([{"correct": 1.0, "rating": None, "x": UNPARSED}, {"correct": 0.0, "rating": 3, "x": None}])
    assert reduced["correct"] == 0.5 and reduced["rating"] == 3.0
    assert is_unparsed(reduced["x"]) and math.isnan(reduced["x"])  # NaN: survives any later reducer


def test_fields_missing_in_some_epochs_and_labels() -> None:
    reduced = reduce_values([{"a": 1.0, "s": "B"}, {"a": 3.0, "s": "B", "judge": 4}])
    assert reduced == {"a": 2.0, "s": "B", "judge": 4.0}
    # a label takes its most common value over the parsed epochs (ties: the earliest)
    assert reduce_values([{"s": "B"}, {"s": "C"}, {"s": "C"}]) == {"s": "C"}
    assert reduce_values([{"s": "B"}, {"s": "C"}]) == {"s": "B"}
    assert reduce_values([{"s": UNPARSED}, {"s": "C"}]) == {"s": "C"}


def test_scalars() -> None:
    assert reduce_values([1.0, 0.0, 1.0]) == 2 / 3
    assert math.isnan(reduce_values([None, None]))


def test_reducer_keeps_a_single_epoch_unchanged() -> None:
    reducer = trustmh_mean()
    single = reducer([Score(value={"correct": None}, answer=None, explanation="no single option stated")])
    assert single.value == {"correct": None} and single.explanation == "no single option stated"
    both = reducer([Score(value={"correct": None}, answer="A"), Score(value={"correct": 1.0}, answer="B")])
    assert both.value == {"correct": 1.0} and both.answer is None
