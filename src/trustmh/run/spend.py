"""What capped runs spent in a log folder, so ``--max-cost`` / ``--max-tokens-total`` hold across
reruns.

A cap stop says "rerun the same command to resume"; if each rerun started with a fresh cap, a
user (or a script) rerunning after every stop would spend the cap again and again. So every
capped run of ``trustmh run`` and ``trustmh audit`` adds what it counted against its caps (the
:class:`trustmh.run.budget.RunBudget`'s spending, calls without usage at their worst case) to
:data:`SPEND_FILE` in the log folder, and the next capped run on that folder starts from it:

* the earlier spending counts toward the cap given now; one line says so, and says when the cap
  was raised since (``... counts toward --max-cost 0.05 USD, raised from 0.02``);
* with nothing left under the cap, the run does not start (one line: what was spent, the cap,
  raise it to resume; exit 3); when what is left fits no call, the run stops at its first call
  and says this run could make no progress.

Counted by capped runs only (a run without a cap prices nothing), and written when the run
ends, however it ends short of SIGKILL: a killed run's spending is not in the file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from trustmh.bulk.budget import Budget, CapReached
from trustmh.core.errors import DataFormatError

SPEND_FILE = "trustmh-spend.json"


@dataclass(frozen=True)
class Spent:
    """Counted against the caps by the capped runs of one log folder (cost ``None``: not priced,
    the runs had no ``--max-cost``), and the caps of the last one."""

    cost: float | None = 0.0
    tokens: int = 0
    max_cost: float | None = None
    max_tokens_total: int | None = None


def read_spent(log_dir: Path) -> Spent | None:
    path = log_dir / SPEND_FILE
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        spent = Spent(**data)
        numbers = [spent.tokens, *(v for v in (spent.cost, spent.max_cost, spent.max_tokens_total) if v is not None)]
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0 for v in numbers):
            raise ValueError
    except (OSError, ValueError, TypeError):
        raise DataFormatError(
            path, None, 'expected {"cost", "tokens", "max_cost", "max_tokens_total"} (non-negative numbers)'
        ) from None
    return spent


def carry_over(budget: Budget, earlier: Spent, where: Path) -> str:
    """Count ``earlier`` in ``budget`` and return the line that says so; raises :class:`CapReached`
    when nothing is left under a cap."""
    budget.spent_tokens += earlier.tokens
    budget.spent_cost += earlier.cost or 0.0
    parts, full = [], []
    if budget.max_cost is not None:
        raised = _raised(budget.max_cost, earlier.max_cost, "g")
        if earlier.cost is None:
            parts.append(f"their cost is unknown (no --max-cost then); --max-cost {budget.max_cost:g} USD{raised}")
        else:
            left = budget.max_cost - budget.spent_cost
            parts.append(f"{earlier.cost:.4f} USD of --max-cost {budget.max_cost:g}{raised} ({max(left, 0):.4f} left)")
            full += [f"--max-cost {budget.max_cost:g}"] if left <= 0 else []
    if budget.max_tokens_total is not None:
        raised = _raised(budget.max_tokens_total, earlier.max_tokens_total, ",")
        left_tokens = budget.max_tokens_total - budget.spent_tokens
        parts.append(
            f"{earlier.tokens:,} tokens of --max-tokens-total {budget.max_tokens_total:,}{raised} "
            f"({max(left_tokens, 0):,} left)"
        )
        full += [f"--max-tokens-total {budget.max_tokens_total:,}"] if left_tokens <= 0 else []
    if full:
        raise CapReached(
            f"nothing left under {' and '.join(full)}: earlier runs in {where} spent it ({'; '.join(parts)}). "
            "Raise the cap to resume."
        )
    return f"caps: earlier runs in {where} count toward this one's: " + "; ".join(parts)


def _raised(now: float, before: float | None, spec: str) -> str:
    return f", raised from {format(before, spec)}" if before is not None and now > before else ""


def record_spent(budget: Budget, earlier: Spent | None, log_dir: Path) -> None:
    """Write what ``budget`` counted (``earlier`` included) as the folder's spending; its cost is
    known only when every capped run so far priced its calls (had ``--max-cost``)."""
    priced = budget.max_cost is not None and (earlier is None or earlier.cost is not None)
    spent = Spent(budget.spent_cost if priced else None, budget.spent_tokens, budget.max_cost, budget.max_tokens_total)
    path = log_dir / SPEND_FILE
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(asdict(spent)) + "\n", encoding="utf-8")
    os.replace(temporary, path)


@contextmanager
def counted_in_folder(run: Any, log_dir: Path) -> Iterator[str | None]:
    """While a capped run (a :class:`trustmh.run.budget.RunBudget`, which imports this module)
    runs into ``log_dir``: the folder's earlier spending counts toward its caps, and its own is
    added when it ends. Yields the line to print (``None``: none earlier)."""
    if run is None:
        yield None
        return
    run.earlier = read_spent(log_dir)
    line = carry_over(run.budget, run.earlier, log_dir) if run.earlier is not None else None
    try:
        yield line
    finally:
        run.close()  # calls still reserved were sent and never reported usage: worst case
        if run.budget.spent_tokens > (run.earlier.tokens if run.earlier else 0) and log_dir.is_dir():
            record_spent(run.budget, run.earlier, log_dir)
