"""``trustmh run --max-cost USD`` / ``--max-tokens-total N``: stop an eval set before a cap.

inspect's own limits (``token_limit``, ``cost_limit``) are per sample; a cap on a whole run is
ours. It reuses the bulk engine's :class:`trustmh.bulk.budget.Budget` through inspect hooks:

* before each model call (``on_before_model_generate``, any role, every attempt) the call's
  worst case is reserved — an upper bound of its prompt tokens plus its ``max_tokens``
  (:data:`UNSET_MAX_TOKENS` when the call leaves it to the provider) — keyed by the asyncio
  task making it (a sample makes its calls one after another; a new attempt replaces the
  reservation of a failed one, and a finished sample's reservation is released);
* the usage the provider reports settles it (``on_model_usage``); an answer from inspect's
  cache costs nothing (``on_model_cache_usage``).

A call that goes through a provider's batch API (``--batch``: its role's generate config asks
for batching and its provider has a batch API, :func:`trustmh.run.batching.goes_through_batch_api`)
is reserved and counted at the batch price, as ``--dry-run`` prices it
(:func:`trustmh.cost.prices.call_price`); every other call, a batched role's model whose
provider cannot batch included, at the list price. Whether a call is batched is known when it
is reserved: inspect sends every call of a batching config through its batcher.

A call whose reservation would cross a cap is never sent: the hook marks the run stopped and
stops it (:func:`trustmh.core.run_stop.stop_run`: inspect's task cancel, the same path as a user's
cancel and as a judge that gives nothing usable) and holds the call until the abort reaches it. The runner then exits with code 3 and one line
saying what was spent; rerunning the same command resumes — inspect's eval-set reruns the
unfinished tasks and reuses their finished samples. Calls in flight at the stop were reserved
within the cap, so even if the provider bills them the spend stays under it; their samples
are run again on resume.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from inspect_ai.hooks import BeforeModelGenerate, Hooks, ModelCacheUsageData, ModelUsageData, hooks

from trustmh.bulk.budget import Budget, BudgetStop, CapReached, Reservation, stopped_before_cap
from trustmh.bulk.request import ChatRequest, Completion, GenerationParams
from trustmh.core.run_stop import hold_until_cancelled, stop_run
from trustmh.cost.prices import PriceTable
from trustmh.run.batching import goes_through_batch_api

UNSET_MAX_TOKENS = 4096  # reserved for a call that leaves max_tokens to the provider


@dataclass
class RunBudget:
    budget: Budget
    reservations: dict[asyncio.Task[Any], Reservation] = field(default_factory=dict)
    batched_calls: int = 0  # calls reserved at the batch price (every attempt counts)

    def release(self, task: asyncio.Task[Any] | None, completion: Completion | None = None) -> None:
        held = self.reservations.pop(task, None) if task is not None else None
        if held is not None:
            self.budget.settle(held, completion)

    def release_finished(self) -> None:
        for task in [t for t in self.reservations if t.done()]:
            self.release(task)


_active: RunBudget | None = None


def make_run_budget(
    models: Sequence[str], prices: PriceTable, max_cost: float | None, max_tokens_total: int | None
) -> RunBudget | None:
    """The cap of one run (``None`` without one). ``models``: every model the run may call
    (under test, judge, simulated user); with ``max_cost`` each needs a price (a one-line error
    naming the model otherwise)."""
    if max_cost is None and max_tokens_total is None:
        return None
    return RunBudget(Budget(max_cost, max_tokens_total, {model: prices.price(model) for model in models}))


@contextmanager
def active(run: RunBudget | None) -> Iterator[None]:
    """The hooks enforce ``run`` while the block runs."""
    global _active
    _active = run
    try:
        yield
    finally:
        _active = None


def cap_message(run: RunBudget, finished_samples: int) -> CapReached:
    return CapReached(
        f"{stopped_before_cap(run.budget)} {finished_samples:,} samples finished and are in the logs. "
        "Rerun the same command to resume (a cap counts the spending of one run)."
    )


def spent_line(run: RunBudget) -> str:
    """What a run that stayed under its caps counted against them."""
    budget = run.budget
    parts = []
    if budget.max_cost is not None:
        parts.append(f"{budget.spent_cost:.4f} USD of --max-cost {budget.max_cost:g}")
    if budget.max_tokens_total is not None:
        parts.append(f"{budget.spent_tokens:,} tokens of --max-tokens-total {budget.max_tokens_total:,}")
    calls = run.batched_calls
    batched = f" ({calls:,} batched call{'s' * (calls != 1)} at the batch price)" if calls else ""
    return "counted against the caps: " + ", ".join(parts) + batched


def _request(data: BeforeModelGenerate) -> ChatRequest:
    messages = tuple({"role": str(m.role), "content": m.text} for m in data.input)
    return ChatRequest(
        data.model_name, messages, GenerationParams(max_tokens=data.config.max_tokens or UNSET_MAX_TOKENS)
    )


@hooks(name="trustmh_run_budget", description="trustmh run --max-cost / --max-tokens-total")
class RunBudgetHooks(Hooks):
    def enabled(self) -> bool:
        return _active is not None

    async def on_before_model_generate(self, data: BeforeModelGenerate) -> None:
        run = _active
        if run is None:
            return
        task = asyncio.current_task()
        run.release(task)  # an earlier attempt of this call, or this sample's previous call
        run.release_finished()
        batched = goes_through_batch_api(data.model_name, data.config.batch)
        try:
            reservation = run.budget.reserve(_request(data), batched)
        except BudgetStop:  # never send it: abort the run and wait for the abort to cancel us
            stop_run("run cap")
            await hold_until_cancelled()
        run.batched_calls += batched
        if task is not None:
            run.reservations[task] = reservation

    async def on_model_usage(self, data: ModelUsageData) -> None:
        run = _active
        if run is None:
            return
        usage = data.usage
        prompt = usage.input_tokens + (usage.input_tokens_cache_read or 0) + (usage.input_tokens_cache_write or 0)
        run.release(asyncio.current_task(), Completion("", prompt, usage.output_tokens, "stop"))

    async def on_model_cache_usage(self, data: ModelCacheUsageData) -> None:
        if _active is not None:
            _active.release(asyncio.current_task())
