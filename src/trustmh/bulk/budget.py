"""Caps on a bulk run: ``--max-cost`` (USD) and ``--max-tokens-total``.

Before each fresh call the engine reserves the call's worst case: an upper bound of its
prompt tokens (bytes of the messages, :func:`trustmh.cost.tokens.worst_case_prompt_tokens`)
plus its ``max_tokens``. A call whose reservation, added to what was spent and what calls in
flight have reserved, would cross a cap is not sent: the run stops taking new work, lets the
calls in flight finish (their results are cached) and ends with :class:`BudgetStop`'s
message. Rerunning the same command (with a higher cap) resumes from the cache. Spending is
counted from the usage the endpoint reports; cached answers cost nothing.

A call that goes through a provider's batch API (every call of a model in ``batched_models``,
or one its caller reserves with ``batched=True``) is reserved and counted at the batch price
(:func:`trustmh.cost.prices.call_price`, as the dry run prices it); every other call at the
list price.
"""

from __future__ import annotations

from dataclasses import dataclass

from trustmh.bulk.request import ChatRequest, Completion
from trustmh.core.errors import UserError
from trustmh.cost.prices import Price, call_price
from trustmh.cost.tokens import worst_case_prompt_tokens


class BudgetStop(Exception):
    """Raised by :meth:`Budget.reserve` when a call would cross a cap."""


@dataclass(frozen=True)
class Reservation:
    tokens: int
    cost: float
    price: Price | None  # what the call's usage is counted at when it settles


@dataclass
class Budget:
    max_cost: float | None
    max_tokens_total: int | None
    prices: dict[str, Price | None]  # list price per model name (needed for every model when max_cost is set)
    batched_models: frozenset[str] = frozenset()  # every call of these goes through a batch API (bulk --batch)
    spent_tokens: int = 0
    spent_cost: float = 0.0
    reserved_tokens: int = 0
    reserved_cost: float = 0.0
    stopped: str | None = None  # the cap that stopped the run
    next_need: str = ""  # what the first call that did not fit could have needed
    in_flight: str = ""  # what the calls still in flight had reserved then (why "spent" is below the cap)

    def __post_init__(self) -> None:
        if self.max_cost is not None:
            missing = [model for model, price in self.prices.items() if price is None]
            if missing:
                raise UserError(f"--max-cost: no price known for {', '.join(missing)}; give one with --prices FILE")

    def reserve(self, request: ChatRequest, batched: bool = False) -> Reservation:
        """Reserve the call's worst case; ``batched``: this call goes through a batch API."""
        tokens = worst_case_prompt_tokens(request.messages) + request.params.max_tokens
        price = call_price(self.prices.get(request.model), batched or request.model in self.batched_models)
        cost = price.cost(tokens - request.params.max_tokens, request.params.max_tokens) if price else 0.0
        if self.stopped is None:
            if self.max_tokens_total is not None and (
                self.spent_tokens + self.reserved_tokens + tokens > self.max_tokens_total
            ):
                self.stopped = f"--max-tokens-total {self.max_tokens_total:,}"
                self.next_need = f"{tokens:,} tokens"
                self.in_flight = f"{self.reserved_tokens:,} tokens" if self.reserved_tokens else ""
            elif self.max_cost is not None and self.spent_cost + self.reserved_cost + cost > self.max_cost:
                self.stopped = f"--max-cost {self.max_cost:g} USD"
                self.next_need = f"{cost:.4f} USD"
                self.in_flight = f"{self.reserved_cost:.4f} USD" if self.reserved_cost else ""
        if self.stopped is not None:
            raise BudgetStop(self.stopped)
        self.reserved_tokens += tokens
        self.reserved_cost += cost
        return Reservation(tokens, cost, price)

    def settle(self, reservation: Reservation, completion: Completion | None) -> None:
        """Release the reservation and count what the call really used."""
        self.reserved_tokens -= reservation.tokens
        self.reserved_cost -= reservation.cost
        if completion is None:
            return
        self.spent_tokens += completion.input_tokens + completion.output_tokens
        if reservation.price is not None:
            self.spent_cost += reservation.price.cost(completion.input_tokens, completion.output_tokens)


class CapReached(UserError):
    """The run stopped before a cap; its finished calls are cached. Exit code 3."""

    exit_code = 3


def stopped_before_cap(budget: Budget) -> str:
    """The first sentence of a cap message: which cap, what was spent, what the next call needed."""
    spent = (
        f"{budget.spent_cost:.4f} USD"
        if budget.stopped and "cost" in budget.stopped
        else f"{budget.spent_tokens:,} tokens"
    )
    # Calls in flight hold a reservation of their worst case: without it the line read as if the
    # run stopped well below its cap for no reason (issue 30).
    held = f" on top of {budget.in_flight} reserved by the calls then in flight" if budget.in_flight else ""
    return (
        f"stopped before the cap: {budget.stopped}: {spent} spent, the next call could need up to "
        f"{budget.next_need} more{held}, which could cross the cap."
    )


def cap_reached(budget: Budget, fresh_calls: int) -> CapReached:
    return CapReached(
        f"{stopped_before_cap(budget)} {fresh_calls:,} calls were answered and cached; no output written. "
        "Rerun the same command (with a higher cap) to continue from the cache."
    )
