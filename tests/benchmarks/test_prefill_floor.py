"""The prefill floor that benchmarks/default_run_bench.py prints beside a run's real prefill: the
tokens any reuse scheme must prefill for a run's prompts (benchmarks/prefill_floor.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def floor_module():
    spec = importlib.util.spec_from_file_location("prefill_floor", BENCHMARKS / "prefill_floor.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["prefill_floor"] = module
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("prefill_floor", None)


def test_shared_prefixes_count_once_and_identical_prompts_add_nothing(floor_module):
    Call = floor_module.Call
    calls = [
        Call("a", [1, 2, 3, 4], [9]),
        Call("a", [1, 2, 3, 5, 6], [9]),  # shares 1 2 3: prefills 5 6
        Call("b", [1, 2, 7], [9]),  # shares 1 2 with task a's prompts: prefills 7
        Call("b", [1, 2, 7], [9]),  # the same request again: nothing
    ]
    assert floor_module.prefill_floor(calls) == {"a": 6, "b": 1}


def test_an_answer_in_a_later_prompt_was_computed_by_its_generation(floor_module):
    Call = floor_module.Call
    first = Call("talk", [1, 2, 3], [40, 41, 42])
    # The next turn holds the answer, then new text (the other party's message).
    second = Call("talk", [1, 2, 3, 40, 41, 42, 50, 51], [60])
    assert floor_module.prefill_floor([first, second]) == {"talk": 3 + 2}


def test_an_answer_does_not_cover_a_prompt_that_diverges_before_it(floor_module):
    Call = floor_module.Call
    # Same answer tokens, but after a different prefix: their KV entries differ.
    calls = [Call("x", [1, 2], [7, 8]), Call("x", [3, 7, 8], [9])]
    assert floor_module.prefill_floor(calls) == {"x": 2 + 3}


def test_the_total_does_not_depend_on_the_order_of_calls(floor_module):
    Call = floor_module.Call
    calls = [Call("a", [1, 2, 3], [4]), Call("b", [1, 2, 3, 4, 5], [6]), Call("c", [1, 9], [])]
    forward = floor_module.prefill_floor(calls)
    backward = floor_module.prefill_floor(list(reversed(calls)))
    assert sum(forward.values()) == sum(backward.values()) == 3 + 1 + 1
    assert forward == {"a": 3, "b": 1, "c": 1}
    assert backward == {"c": 2, "b": 3, "a": 0}


def test_wall_floor_is_floor_over_prefill_rate_plus_generated_over_best_decode_rate(floor_module):
    rates = floor_module.Rates(prefill=250.0, decode={1: 100.0, 16: 200.0})
    assert floor_module.wall_floor(5_000, 4_000, rates) == pytest.approx(5_000 / 250 + 4_000 / 200)
