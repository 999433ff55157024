"""The ``--dry-run`` table: per model and role, what a run would send and cost at most."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypedDict, Unpack

from rich.table import Table

from trustmh.cost.prices import Price, PriceTable, call_price
from trustmh.cost.tokens import Messages, TokenCounter


class Counted(TypedDict, total=False):
    """How a request counts: ``cached`` (already answered: costs nothing), the ``task`` it belongs to,
    ``at_most`` requests it may become (a judgement re-asked after an unusable verdict)."""

    cached: bool
    task: str | None
    at_most: int


@dataclass
class EstimateRow:
    model: str
    role: str
    requests: int = 0
    cached: int = 0  # already in the cache: cost nothing
    prompt_tokens: int = 0  # of the requests still to send
    max_completion_tokens: int | None = 0  # None: some request leaves it to the provider's default
    method: str = ""
    price: Price | None = None  # the batch price when batched
    notes: list[str] = field(default_factory=list)
    batched: bool = False  # sent through the provider's batch API
    by_task: dict[str, int] = field(default_factory=dict)  # requests per task (the run's dry run)
    max_by_task: dict[str, int] = field(default_factory=dict)  # at most, per task (judge re-asks)
    extra_at_most: int = 0  # requests that may come on top of ``requests`` outside any task

    def add(self, counter: TokenCounter, messages: Messages, max_tokens: int | None, **how: Unpack[Counted]) -> None:
        """One request (see :class:`Counted`)."""
        cached, task, at_most = how.get("cached", False), how.get("task"), how.get("at_most", 1)
        self.requests += 1
        if task is not None:
            self.by_task[task] = self.by_task.get(task, 0) + 1
            self.max_by_task[task] = self.max_by_task.get(task, 0) + at_most
        else:
            self.extra_at_most += at_most - 1
        if cached:
            self.cached += 1
            return
        self.prompt_tokens += counter.count(messages)
        if max_tokens is None or self.max_completion_tokens is None:
            self.max_completion_tokens = None
        else:
            self.max_completion_tokens += max_tokens

    @property
    def max_requests(self) -> int:
        """At most this many requests (``requests`` when none can be re-asked)."""
        counted = sum(self.by_task.values())
        return max(self.requests, sum(self.max_by_task.values()) + (self.requests - counted) + self.extra_at_most)

    def allow_calibration(self, asks: int) -> None:
        """A judge may be asked one calibration item per task (``asks`` requests at most)."""
        for task in self.max_by_task:
            self.max_by_task[task] += asks

    def repeat(self, times: int) -> None:
        """The same requests sent ``times`` times (epochs)."""
        self.requests *= times
        self.by_task = {task: count * times for task, count in self.by_task.items()}
        self.max_by_task = {task: count * times for task, count in self.max_by_task.items()}
        self.extra_at_most *= times
        self.cached *= times
        self.prompt_tokens *= times
        if self.max_completion_tokens is not None:
            self.max_completion_tokens *= times

    @property
    def cost(self) -> float | None:
        """Upper estimate: every request uses its full completion budget."""
        if self.price is None or self.max_completion_tokens is None:
            return None
        return self.price.cost(self.prompt_tokens, self.max_completion_tokens)

    def as_dict(self) -> dict[str, object]:
        return {
            "model": self.model,
            "role": self.role,
            "requests": self.requests,
            "max_requests": self.max_requests,
            "requests_by_task": dict(self.by_task),
            "max_requests_by_task": dict(self.max_by_task),
            "cached": self.cached,
            "prompt_tokens": self.prompt_tokens,
            "prompt_tokens_method": self.method,
            "max_completion_tokens": self.max_completion_tokens,
            "price_per_million": None
            if self.price is None
            else {"input": self.price.input, "output": self.price.output},
            "price_source": None if self.price is None else self.price.source,
            "batched": self.batched,
            "estimated_cost_usd": self.cost,
            "notes": self.notes,
        }


class Estimate:
    """Rows keyed by (model, role), one token counter per model."""

    def __init__(self, prices: PriceTable, batched: Callable[[str, str], bool] | None = None) -> None:
        """``batched(model, role)``: that row's requests go through a batch API (priced at the batch price)."""
        self.prices = prices
        self.batched = batched or (lambda model, role: False)
        self.rows: dict[tuple[str, str], EstimateRow] = {}
        self._counters: dict[str, TokenCounter] = {}

    def row(self, model: str, role: str) -> EstimateRow:
        key = (model, role)
        if key not in self.rows:
            counter = self.counter(model)
            batched = self.batched(model, role)
            price = call_price(self.prices.price(model), batched)
            row = EstimateRow(model, role, method=counter.method, price=price, batched=batched and price is not None)
            if row.batched and price is not None and price.batch_share is None:
                row.notes.append(
                    "batched, but no batch price is known: priced at the full price (give batch: SHARE in --prices)"
                )
            self.rows[key] = row
        return self.rows[key]

    def counter(self, model: str) -> TokenCounter:
        if model not in self._counters:
            self._counters[model] = TokenCounter(model)
        return self._counters[model]

    def add(self, model: str, role: str, messages: Messages, max_tokens: int | None, **how: Unpack[Counted]) -> None:
        row = self.row(model, role)
        counter = self.counter(model)
        row.add(counter, messages, max_tokens, **how)
        row.method = counter.method  # it says so once it starts extrapolating

    @property
    def total_cost(self) -> float | None:
        costs = [row.cost for row in self.rows.values()]
        return None if any(cost is None for cost in costs) else sum(c for c in costs if c is not None)

    def as_dict(self) -> dict[str, object]:
        return {"rows": [row.as_dict() for row in self.rows.values()], "estimated_cost_usd": self.total_cost}

    def table(self, title: str) -> Table:
        table = Table(title=title)
        table.add_column("model", no_wrap=True)
        table.add_column("role", no_wrap=True)
        for column in ("requests", "cached", "prompt tokens", "max completion", "est. cost USD ≤"):
            table.add_column(column, justify="right")
        for row in self.rows.values():
            table.add_row(
                row.model,
                row.role,
                f"{row.requests:,}",
                f"{row.cached:,}",
                f"{row.prompt_tokens:,}",
                "provider default" if row.max_completion_tokens is None else f"{row.max_completion_tokens:,}",
                _money(row.cost, row.price),
            )
        return table

    def footnotes(self) -> list[str]:
        lines = []
        for method in sorted({row.method for row in self.rows.values()}):
            models = ", ".join(sorted({row.model for row in self.rows.values() if row.method == method}))
            lines.append(f"prompt tokens by {method}: {models}")
        for source in sorted({row.price.source for row in self.rows.values() if row.price is not None}):
            models = ", ".join(
                sorted({r.model for r in self.rows.values() if r.price is not None and r.price.source == source})
            )
            lines.append(f"prices ({source}): {models}")
        unpriced = sorted({row.model for row in self.rows.values() if row.price is None})
        if unpriced:
            lines.append(f"no price known for {', '.join(unpriced)}: give one with --prices FILE")
        batched = sorted({r.model for r in self.rows.values() if r.batched and r.price and r.price.batch_share})
        if batched:
            lines.append(
                f"--batch: priced at the batch price (a share of the price, see docs/cost.md): {', '.join(batched)}"
            )
        for row in self.rows.values():
            lines += [f"{row.model} ({row.role}): {note}" for note in row.notes]
        total = self.total_cost
        lines.append(
            "total estimated cost ≤ "
            + ("unknown" if total is None else f"{total:.2f} USD")
            + " (every request using its full completion budget; cached requests cost nothing)"
        )
        return lines


def task_table(estimate: Estimate) -> Table | None:
    """Requests per task, model and role (``None`` when no request was counted per task)."""
    rows = [(task, row, count) for row in estimate.rows.values() for task, count in row.by_task.items()]
    if not rows:
        return None
    table = Table(title="requests per task")
    for column in ("task", "model", "role"):
        table.add_column(column, no_wrap=True)
    table.add_column("requests", justify="right")
    table.add_column("at most", justify="right")
    for task, row, count in sorted(rows, key=lambda r: (r[0], r[1].model, r[1].role)):
        table.add_row(task, row.model, row.role, f"{count:,}", f"{row.max_by_task.get(task, count):,}")
    return table


def print_estimate(console: Any, estimate: Estimate, title: str, per_task: bool = False) -> None:
    """The estimate's table, then (``per_task``, ``run --dry-run``) the requests per task, then the footnotes."""
    console.print(estimate.table(title))
    by_task = task_table(estimate) if per_task else None
    if by_task is not None:
        console.print(by_task)
    for line in estimate.footnotes():
        console.print(line, highlight=False)


def _money(cost: float | None, price: Price | None) -> str:
    if price is None:
        return "no price"
    if cost is None:
        return "unknown"
    return f"{cost:,.2f}"
