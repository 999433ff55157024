"""Issue 25, cost control that holds (the accounting, without a server; end to end in
``test_cap_holds.py``):

* an attempt that ends without usage — abandoned at the attempt timeout, dropped, cancelled in
  flight — counts at its worst case, since the server may finish and bill it; an attempt the
  server answered with an HTTP error counts nothing;
* a cap below the concurrent worst case makes calls wait for room (fewer at once) instead of
  stopping the run; only a call that cannot fit even alone stops it.
"""

from __future__ import annotations

import asyncio

import pytest
from inspect_ai.hooks import BeforeModelGenerate, ModelRetry, ModelUsageData
from inspect_ai.model import ChatMessageUser, GenerateConfig, ModelUsage

from trustmh.bulk.budget import Budget, BudgetStop
from trustmh.bulk.request import ChatRequest, Completion, GenerationParams
from trustmh.core import run_stop
from trustmh.cost.prices import Price
from trustmh.cost.tokens import worst_case_prompt_tokens
from trustmh.run.budget import RunBudget, RunBudgetHooks, active

MODEL = "openai/capped"
PRICE = Price(10.0, 1000.0, "test")  # USD per million tokens
PROMPT = "How do I cope with panic at night?"
MAX_TOKENS = 100
WORST_TOKENS = worst_case_prompt_tokens([{"role": "user", "content": PROMPT}]) + MAX_TOKENS
WORST_COST = PRICE.cost(WORST_TOKENS - MAX_TOKENS, MAX_TOKENS)


def _before() -> BeforeModelGenerate:
    return BeforeModelGenerate(
        MODEL, [ChatMessageUser(content=PROMPT)], [], "auto", GenerateConfig(max_tokens=100), None
    )


def _retry(status: int | None, kind: str) -> ModelRetry:
    return ModelRetry(MODEL, attempt=1, wait_time=0.0, exception_type=kind, status_code=status)


def _usage(prompt: int, completion: int) -> ModelUsageData:
    return ModelUsageData(MODEL, ModelUsage(input_tokens=prompt, output_tokens=completion), call_duration=0.1)


def _run(max_cost: float | None = 100.0, max_tokens_total: int | None = None) -> RunBudget:
    run_stop.reset()
    return RunBudget(Budget(max_cost, max_tokens_total, {MODEL: PRICE}))


def test_an_attempt_abandoned_at_the_timeout_counts_at_its_worst_case() -> None:
    run, hooks = _run(), RunBudgetHooks()

    async def one_call_with_a_timed_out_attempt() -> None:
        await hooks.on_before_model_generate(_before())  # attempt 1: abandoned at the attempt timeout
        await hooks.on_model_retry(_retry(None, "AttemptTimeoutError"))
        await hooks.on_before_model_generate(_before())  # attempt 2 answers
        await hooks.on_model_usage(_usage(40, 20))

    with active(run):
        asyncio.run(one_call_with_a_timed_out_attempt())
    assert run.budget.spent_tokens == WORST_TOKENS + 60
    assert run.budget.spent_cost == pytest.approx(WORST_COST + PRICE.cost(40, 20))
    assert run.budget.unknown_attempts == 1 and run.budget.reserved_tokens == 0


def test_an_attempt_the_server_refused_with_an_http_error_counts_nothing() -> None:
    run, hooks = _run(), RunBudgetHooks()

    async def one_call_refused_once() -> None:
        await hooks.on_before_model_generate(_before())
        await hooks.on_model_retry(_retry(503, "APIStatusError"))
        await hooks.on_before_model_generate(_before())
        await hooks.on_model_usage(_usage(40, 20))

    with active(run):
        asyncio.run(one_call_refused_once())
    assert run.budget.spent_tokens == 60 and run.budget.unknown_attempts == 0


def test_calls_cancelled_in_flight_or_ending_without_usage_count_at_their_worst_case() -> None:
    run, hooks = _run(), RunBudgetHooks()

    async def calls() -> None:
        in_flight = asyncio.ensure_future(_call_then_hang(hooks))
        await asyncio.sleep(0.01)
        in_flight.cancel()  # a stop cancels the sample while its call is in flight
        await asyncio.gather(in_flight, return_exceptions=True)
        await hooks.on_before_model_generate(_before())  # a reply with no usage: the next call finds it
        await hooks.on_before_model_generate(_before())

    with active(run):
        asyncio.run(calls())
    assert run.budget.unknown_attempts == 2  # the cancelled one and the one without usage
    run.close()  # the last call never reported usage either
    assert run.budget.spent_tokens == 3 * WORST_TOKENS and run.budget.reserved_tokens == 0


async def _call_then_hang(hooks: RunBudgetHooks) -> None:
    await hooks.on_before_model_generate(_before())
    await asyncio.sleep(60)


def test_the_budget_makes_a_call_wait_for_room_and_stops_only_when_it_cannot_fit_alone() -> None:
    budget = Budget(None, int(WORST_TOKENS * 2.5), {MODEL: PRICE})
    request = ChatRequest(MODEL, ({"role": "user", "content": PROMPT},), GenerationParams(max_tokens=MAX_TOKENS))
    first, second = budget.try_reserve(request), budget.try_reserve(request)
    assert first is not None and second is not None
    assert budget.try_reserve(request) is None  # fits, but only once a call in flight settles
    assert budget.stopped is None
    budget.settle(first, Completion("", WORST_TOKENS // 2, 0, "stop"))
    third = budget.try_reserve(request)
    assert third is not None  # room again: spent + 2 in flight fit
    budget.settle_unknown(second)
    budget.settle_unknown(third)  # spent: 2.5 worst cases -> a fourth call can never fit
    with pytest.raises(BudgetStop):
        budget.try_reserve(request)
    assert budget.stopped == f"--max-tokens-total {int(WORST_TOKENS * 2.5):,}" and budget.in_flight == ""
    assert budget.next_need == f"{WORST_TOKENS:,} tokens"


def test_a_cap_below_the_concurrent_worst_case_runs_calls_fewer_at_once() -> None:
    """Five concurrent calls under a cap of 2.5 worst cases: at most two at once, all answered."""
    run, hooks = _run(None, int(WORST_TOKENS * 2.5)), RunBudgetHooks()
    at_once: list[int] = []

    async def call() -> None:
        await hooks.on_before_model_generate(_before())
        at_once.append(len(run.reservations))
        await asyncio.sleep(0.1)
        await hooks.on_model_usage(_usage(5, 5))

    async def calls() -> None:
        await asyncio.wait_for(asyncio.gather(*(call() for _ in range(5))), 10)

    with active(run):
        asyncio.run(calls())
    assert max(at_once) == 2 and len(at_once) == 5
    assert run.budget.stopped is None and run.budget.spent_tokens == 50
