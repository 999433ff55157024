"""Issue 25: the bulk engine's caps (``generate``/``judge`` ``--max-cost``, ``--max-tokens-total``)
hold: a timed-out attempt counts at its worst case (the server may still bill it), an HTTP error
counts nothing, and a cap below the concurrent worst case runs fewer calls at once instead of
stopping."""

from __future__ import annotations

import asyncio

from tests.bulk.test_engine import FAST_RETRIES, MODEL, requests
from tests.doubles.openai_double import Faults, OpenAIDouble
from trustmh.bulk.backends import OpenAIBackend
from trustmh.bulk.budget import Budget
from trustmh.bulk.engine import BulkEngine
from trustmh.bulk.request import ChatOutcome, ChatRequest
from trustmh.cost.tokens import worst_case_prompt_tokens


def run_capped(
    base_url: str, items: list[ChatRequest], budget: Budget, max_connections: int = 16, timeout: float = 10.0
) -> list[ChatOutcome]:
    async def main() -> list[ChatOutcome]:
        backend = OpenAIBackend(base_url, "sk-unused", timeout, max_connections)
        engine = BulkEngine({MODEL: backend}, None, max_connections, FAST_RETRIES, seed=0)
        engine.budget = budget
        try:
            return await engine.run_jobs(items, engine.complete)
        finally:
            await engine.close()

    return asyncio.run(main())


def worst_tokens(request: ChatRequest) -> int:
    return worst_case_prompt_tokens(request.messages) + request.params.max_tokens


def test_a_timed_out_attempt_counts_at_its_worst_case_and_an_http_error_counts_nothing() -> None:
    (request,) = requests(1)
    for faults, unknown in (
        (Faults(timeout=1.0, fault_attempts=1, hang_seconds=5), 1),
        (Faults(http_5xx=1.0, fault_attempts=1), 0),
    ):
        budget = Budget(None, 10**9, {MODEL: None})
        with OpenAIDouble(faults=faults, seed=1) as server:
            (outcome,) = run_capped(server.base_url, [request], budget, timeout=0.5)
        assert outcome.completion is not None and outcome.attempts == 2
        used = outcome.completion.input_tokens + outcome.completion.output_tokens
        assert budget.unknown_attempts == unknown
        assert budget.spent_tokens == used + unknown * worst_tokens(request)
        assert budget.reserved_tokens == 0


def test_a_cap_below_the_concurrent_worst_case_answers_every_call_fewer_at_once() -> None:
    items = requests(8)
    cap = int(max(worst_tokens(r) for r in items) * 2.5)
    budget = Budget(None, cap, {MODEL: None})
    with OpenAIDouble(latency=0.05) as server:
        outcomes = run_capped(server.base_url, items, budget, max_connections=8)
        _, most_at_once = server.traffic()
    assert all(o.completion is not None for o in outcomes)  # before: stopped at the third call
    assert budget.stopped is None and 1 <= most_at_once <= 2
