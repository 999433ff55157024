"""The caps' budget: a batched call is reserved and counted at the batch price, any other call
at the list price (``--max-cost`` in ``generate``/``judge`` and in ``run``)."""

from __future__ import annotations

import pytest

from trustmh.bulk.budget import Budget
from trustmh.bulk.request import ChatRequest, Completion, GenerationParams
from trustmh.cost.prices import Price

LIST_PRICE = Price(input=2.0, output=4.0, source="test", batch_share=0.5)  # USD per million tokens


def _request(model: str) -> ChatRequest:
    return ChatRequest(model, ({"role": "user", "content": "hello"},), GenerationParams(max_tokens=500))


def _spent(batched_models: frozenset[str], batched: bool) -> tuple[float, float]:
    """(reserved cost, spent cost) of one call that used 1,000 prompt and 500 completion tokens."""
    budget = Budget(10.0, None, {"openai/m": LIST_PRICE}, batched_models)
    reservation = budget.reserve(_request("openai/m"), batched)
    reserved = budget.reserved_cost
    budget.settle(reservation, Completion("hi", 1000, 500, "stop"))
    assert budget.reserved_cost == pytest.approx(0.0)
    return reserved, budget.spent_cost


def test_a_batched_call_is_reserved_and_counted_at_the_batch_price() -> None:
    full = (1000 * 2.0 + 500 * 4.0) / 1e6  # 0.004 USD
    reserved_full, spent_full = _spent(frozenset(), batched=False)
    assert spent_full == pytest.approx(full)
    for batched_models, batched in ((frozenset(), True), (frozenset({"openai/m"}), False)):  # run, then bulk
        reserved, spent = _spent(batched_models, batched)
        assert spent == pytest.approx(full * 0.5)
        assert reserved == pytest.approx(reserved_full * 0.5) and reserved > 0


def test_a_batched_call_of_a_model_without_a_batch_share_keeps_the_list_price() -> None:
    budget = Budget(10.0, None, {"google/g": Price(2.0, 4.0, "test", batch_share=None)})
    budget.settle(budget.reserve(_request("google/g"), batched=True), Completion("hi", 1000, 500, "stop"))
    assert budget.spent_cost == pytest.approx(0.004)
