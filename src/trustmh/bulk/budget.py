"""Caps on a bulk run or an eval run: ``--max-cost`` (USD) and ``--max-tokens-total``.

Before each fresh call its worst case is reserved: an upper bound of its prompt tokens (bytes
of the messages, :func:`trustmh.cost.tokens.worst_case_prompt_tokens`) plus its ``max_tokens``.
Spending is counted from the usage the endpoint reports; cached answers cost nothing. An attempt
whose usage never came back although the server may have done the work (abandoned at a timeout,
a dropped connection, cancelled in flight) is counted at its worst case (:meth:`Budget.settle_unknown`):
the server may finish it and bill it.

A cap smaller than the worst case of every call in flight lowers concurrency, down to one call:
a call that fits beside what was spent but not beside what calls in flight hold waits for them
to settle (:meth:`Budget.try_reserve` answers ``None``). Only a call whose worst case does not
fit even alone (spent + its worst case > cap) stops the run (:class:`BudgetStop`): it is not
sent, the calls in flight finish, and the run ends with one line saying what was spent, the
cap and that call's worst case (:func:`stopped_before_cap`). Rerunning the same command resumes
(bulk: from the cache; ``run``: eval-set's resume).

A call that goes through a provider's batch API (every call of a model in ``batched_models``,
or one its caller reserves with ``batched=True``) is reserved and counted at the batch price
(:func:`trustmh.cost.prices.call_price`, as the dry run prices it); every other call at the
list price.
"""

from __future__ import annotations

from dataclasses import dataclass

from trustmh.bulk.request import ChatRequest, Completion
from trustmh.core.errors import UserError
from trustmh.cost.prices import AMOUNT_EXPECTED, Price, call_price, is_amount
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
    unknown_attempts: int = 0  # attempts without usage counted at their worst case (settle_unknown)

    def __post_init__(self) -> None:
        if self.max_cost is not None and not is_amount(self.max_cost):  # a NaN cap would never stop
            raise UserError(f"--max-cost: {AMOUNT_EXPECTED}; found {self.max_cost!r}")
        if self.max_cost is not None:
            missing = [model for model, price in self.prices.items() if price is None]
            if missing:
                raise UserError(f"--max-cost: no price known for {', '.join(missing)}; give one with --prices FILE")

    def worst_case(self, request: ChatRequest, batched: bool = False) -> Reservation:
        """What the call could cost at most (not reserved); ``batched``: it goes through a batch API."""
        tokens = worst_case_prompt_tokens(request.messages) + request.params.max_tokens
        price = call_price(self.prices.get(request.model), batched or request.model in self.batched_models)
        cost = price.cost(tokens - request.params.max_tokens, request.params.max_tokens) if price else 0.0
        return Reservation(tokens, cost, price)

    def reserve(self, request: ChatRequest, batched: bool = False) -> Reservation:
        """Reserve the call's worst case now, or raise :class:`BudgetStop` when it does not fit
        beside what is spent and reserved (for a caller that cannot wait)."""
        need = self.worst_case(request, batched)
        if self.stopped is None and not self._fits(need, self.reserved_tokens, self.reserved_cost):
            self._stop(need, in_flight=True)
        if self.stopped is not None:
            raise BudgetStop(self.stopped)
        return self._hold(need)

    def try_reserve(self, request: ChatRequest, batched: bool = False) -> Reservation | None:
        """Reserve the call's worst case if it fits now; ``None`` if it fits only once calls in
        flight settle (wait, then ask again); :class:`BudgetStop` if it can never fit (spent and
        its worst case already cross a cap: spending only grows)."""
        need = self.worst_case(request, batched)
        if self.stopped is None and not self._fits(need, 0, 0.0):
            self._stop(need, in_flight=False)
        if self.stopped is not None:
            raise BudgetStop(self.stopped)
        if not self._fits(need, self.reserved_tokens, self.reserved_cost):
            return None
        return self._hold(need)

    def _fits(self, need: Reservation, reserved_tokens: int, reserved_cost: float) -> bool:
        if (
            self.max_tokens_total is not None
            and self.spent_tokens + reserved_tokens + need.tokens > self.max_tokens_total
        ):
            return False
        return self.max_cost is None or self.spent_cost + reserved_cost + need.cost <= self.max_cost

    def _stop(self, need: Reservation, in_flight: bool) -> None:
        """Record which cap the call ``need`` would cross and what it needed (for the message)."""
        if self.max_tokens_total is not None and (
            self.spent_tokens + (self.reserved_tokens if in_flight else 0) + need.tokens > self.max_tokens_total
        ):
            self.stopped = f"--max-tokens-total {self.max_tokens_total:,}"
            self.next_need = f"{need.tokens:,} tokens"
            self.in_flight = f"{self.reserved_tokens:,} tokens" if in_flight and self.reserved_tokens else ""
        else:
            self.stopped = f"--max-cost {self.max_cost:g} USD"
            self.next_need = f"{need.cost:.4f} USD"
            self.in_flight = f"{self.reserved_cost:.4f} USD" if in_flight and self.reserved_cost else ""

    def _hold(self, need: Reservation) -> Reservation:
        self.reserved_tokens += need.tokens
        self.reserved_cost += need.cost
        return need

    def settle(self, reservation: Reservation, completion: Completion | None) -> None:
        """Release the reservation and count what the call really used (``None``: nothing reached
        the server that it could bill, e.g. it answered with an HTTP error)."""
        self.reserved_tokens -= reservation.tokens
        self.reserved_cost -= reservation.cost
        if completion is None:
            return
        self.spent_tokens += completion.input_tokens + completion.output_tokens
        if reservation.price is not None:
            self.spent_cost += reservation.price.cost(completion.input_tokens, completion.output_tokens)

    def settle_unknown(self, reservation: Reservation) -> None:
        """Release the reservation of an attempt whose usage never came back although the server
        may have done the work (abandoned at a timeout, dropped, cancelled in flight): it counts
        at its worst case, as if the server finished it and billed every token it could."""
        self.reserved_tokens -= reservation.tokens
        self.reserved_cost -= reservation.cost
        self.spent_tokens += reservation.tokens
        self.spent_cost += reservation.cost
        self.unknown_attempts += 1


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
