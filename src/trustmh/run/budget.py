"""``trustmh run --max-cost USD`` / ``--max-tokens-total N``: stop an eval set before a cap.

inspect's own limits (``token_limit``, ``cost_limit``) are per sample; a cap on a whole run is
ours. It reuses the bulk engine's :class:`trustmh.bulk.budget.Budget` through inspect hooks:

* before each model call (``on_before_model_generate``, any role, every attempt) the call's
  worst case is reserved — an upper bound of its prompt tokens plus its ``max_tokens``
  (:data:`UNSET_MAX_TOKENS` when the call leaves it to the provider) — keyed by the asyncio
  task making it (a sample makes its calls one after another);
* the usage the provider reports settles it (``on_model_usage``); an answer from inspect's
  cache costs nothing (``on_model_cache_usage``);
* an attempt that ends without usage is counted at its worst case, since the server may have
  done the work and billed it: an attempt abandoned at ``--attempt-timeout`` or dropped
  (``on_model_retry`` with no HTTP status), a call cancelled in flight (a stop), a reply that
  carried no usage. An attempt the server answered with an HTTP error (``on_model_retry`` with
  a status: 429, 5xx) did no billable work and counts nothing.

A cap smaller than the worst case of every call in flight lowers concurrency instead of
stopping: a call that fits beside what was spent, but not beside what calls in flight hold,
waits (polling every :data:`WAIT_SECONDS`) until they settle — down to one call at a time.
Only a call whose worst case does not fit even alone (spent + its worst case > cap: spending
only grows) is never sent: the hook marks the run stopped and stops it
(:func:`trustmh.core.run_stop.stop_run`: inspect's task cancel, the same path as a user's cancel
and as a judge that gives nothing usable) and holds the call until the abort reaches it. The
runner then exits with code 3 and one line saying what was spent, the cap and that call's worst
case; rerunning the same command resumes — inspect's eval-set reruns the unfinished tasks and
reuses their finished samples. Calls in flight at the stop were reserved within the cap and are
counted at their worst case, so even if the provider bills them the spend stays under it.

A call that goes through a provider's batch API (``--batch``: its role's generate config asks
for batching and its provider has a batch API, :func:`trustmh.run.batching.goes_through_batch_api`)
is reserved and counted at the batch price, as ``--dry-run`` prices it
(:func:`trustmh.cost.prices.call_price`); every other call, a batched role's model whose
provider cannot batch included, at the list price. Whether a call is batched is known when it
is reserved: inspect sends every call of a batching config through its batcher.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from inspect_ai.hooks import BeforeModelGenerate, Hooks, ModelCacheUsageData, ModelRetry, ModelUsageData, hooks

from trustmh.bulk.budget import Budget, BudgetStop, CapReached, Reservation, stopped_before_cap
from trustmh.bulk.request import ChatRequest, Completion, GenerationParams
from trustmh.core.run_stop import hold_until_cancelled, stop_reasons, stop_run
from trustmh.cost.prices import PriceTable
from trustmh.run.batching import goes_through_batch_api
from trustmh.run.spend import Spent

UNSET_MAX_TOKENS = 4096  # reserved for a call that leaves max_tokens to the provider
WAIT_SECONDS = 0.05  # how often a call waiting for room (calls in flight to settle) looks again


@dataclass
class RunBudget:
    budget: Budget
    reservations: dict[asyncio.Task[Any], Reservation] = field(default_factory=dict)
    batched_calls: int = 0  # calls reserved at the batch price (every attempt counts)
    earlier: Spent | None = None  # what earlier capped runs on the log folder spent (counted in budget)

    def settle(self, task: asyncio.Task[Any] | None, completion: Completion | None) -> None:
        """The task's call ended with this usage (``None``: nothing billable, e.g. an HTTP error)."""
        held = self.reservations.pop(task, None) if task is not None else None
        if held is not None:
            self.budget.settle(held, completion)

    def settle_unknown(self, task: asyncio.Task[Any] | None) -> None:
        """The task's call ended without usage although the server may have billed it: its worst case."""
        held = self.reservations.pop(task, None) if task is not None else None
        if held is not None:
            self.budget.settle_unknown(held)

    def settle_finished(self) -> None:
        """Tasks that ended holding a reservation (cancelled in flight, or no usage came back)."""
        for task in [t for t in self.reservations if t.done()]:
            self.settle_unknown(task)

    def close(self) -> None:
        """At the end of the run: whatever is still reserved was sent and never reported usage."""
        for task in list(self.reservations):
            self.settle_unknown(task)

    async def reserve(self, data: BeforeModelGenerate, task: asyncio.Task[Any] | None) -> Reservation | None:
        """The call's reservation, once there is room for it (``None``: the run is stopped, so
        the call is held and never sent); raises :class:`BudgetStop` when it can never fit."""
        batched = goes_through_batch_api(data.model_name, data.config.batch)
        request = _request(data)
        while True:
            if stop_reasons():  # another call stopped the run: this one is held, never sent
                return None
            self.settle_finished()
            reservation = self.budget.try_reserve(request, batched)
            if reservation is not None:
                self.batched_calls += batched
                if task is not None:
                    self.reservations[task] = reservation
                return reservation
            await asyncio.sleep(WAIT_SECONDS)  # fits once calls in flight settle: fewer at once


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
    run.close()  # calls cancelled in flight by the stop count at their worst case
    budget, earlier = run.budget, run.earlier
    if earlier is not None and budget.spent_tokens == earlier.tokens:  # not one call was sent
        return CapReached(
            f"{stopped_before_cap(budget)} This run made no progress: what earlier runs on this log "
            "folder spent counts toward the cap, and no call fits in what is left. Raise the cap to resume."
        )
    return CapReached(
        f"{stopped_before_cap(budget)} {finished_samples:,} samples finished and are in the logs. "
        "Rerun the same command to resume with what is left of the cap (the spending of every capped "
        "run on this log folder counts toward it), or raise the cap."
    )


def spent_line(run: RunBudget) -> str:
    """What a run that stayed under its caps counted against them."""
    run.close()
    budget = run.budget
    parts = []
    if budget.max_cost is not None:
        parts.append(f"{budget.spent_cost:.4f} USD of --max-cost {budget.max_cost:g}")
    if budget.max_tokens_total is not None:
        parts.append(f"{budget.spent_tokens:,} tokens of --max-tokens-total {budget.max_tokens_total:,}")
    calls = run.batched_calls
    batched = f" ({calls:,} batched call{'s' * (calls != 1)} at the batch price)" if calls else ""
    unknown = budget.unknown_attempts
    unbilled = (
        f" ({unknown:,} attempt{'s' * (unknown != 1)} without usage, e.g. abandoned at a timeout, counted "
        "at the worst case)"
        if unknown
        else ""
    )
    return "counted against the caps: " + ", ".join(parts) + batched + unbilled


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
        # A reservation this task still holds is a call that ended without usage (nor a retry
        # notice): it may have been billed, so it counts at its worst case.
        run.settle_unknown(task)
        try:
            reserved = await run.reserve(data, task)
        except BudgetStop:  # never send it: abort the run and wait for the abort to cancel us
            stop_run("run cap")
            await hold_until_cancelled()
        if reserved is None:  # the run was stopped while this call waited for room: never send it
            await hold_until_cancelled()

    async def on_model_retry(self, data: ModelRetry) -> None:
        run = _active
        if run is None:
            return
        task = asyncio.current_task()
        if data.status_code is not None:  # the server answered with an error: nothing billed
            run.settle(task, None)
        else:  # abandoned at the attempt timeout, or dropped: the server may finish and bill it
            run.settle_unknown(task)

    async def on_model_usage(self, data: ModelUsageData) -> None:
        run = _active
        if run is None:
            return
        usage = data.usage
        prompt = usage.input_tokens + (usage.input_tokens_cache_read or 0) + (usage.input_tokens_cache_write or 0)
        run.settle(asyncio.current_task(), Completion("", prompt, usage.output_tokens, "stop"))

    async def on_model_cache_usage(self, data: ModelCacheUsageData) -> None:
        if _active is not None:
            _active.settle(asyncio.current_task(), None)
