"""The results summary ``trustmh run`` prints: one line per task, under 100 columns.

Each task shows its pillar's headline (declared in ``pillars/<pillar>/headline.py``; the
strict variant where the scorer reports one; per-group headlines as their mean), or, for a
task without one, its first scored metric. Metrics left unscored for want of a judge are
folded into one line saying what fixes it. Per-group breakdowns belong in the report.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich import box
from rich.table import Table

from trustmh.pillars.headline import pillar_headlines
from trustmh.report.headline import GROUPED, fmt, folded_strict, task_headlines
from trustmh.scoring.results import MetricRow

WIDTH = 100


@dataclass
class TaskLine:
    model: str
    task: str
    starter: bool
    metric: str
    value: float | None
    ci: tuple[float | None, float | None]
    n: int | None
    unparsed: int | None


def _headline_line(rows: list[MetricRow]) -> TaskLine | None:
    first = rows[0]
    for headline in pillar_headlines(first.pillar):
        found = task_headlines(headline, rows).get((first.model, first.task))
        if found is None:
            continue
        name = headline.metric + ("_strict" if found.strict else "")
        if headline.grouped_by:  # the mean over the groups (perturbations, attributes)
            name = f"mean {name}"
        return TaskLine(
            first.model,
            first.task,
            first.source == "starter",
            name,
            found.value,
            (found.ci_low, found.ci_high),
            found.n,
            found.unparsed,
        )
    return None


def _fallback_line(rows: list[MetricRow]) -> TaskLine | None:
    """The first scored metric (its strict variant ``<metric>_strict`` when the scorer reports
    one, as for a headline); else the first whose answers were all unparsed (a line with no
    value but its unparsed count: that is a result, not a missing judge)."""
    ungrouped = [r for r in rows if not GROUPED.match(r.metric)]
    scored = [r for r in ungrouped if r.value is not None]
    unreadable = [r for r in ungrouped if r.value is None and r.unparsed]
    for first in (scored or unreadable)[:1]:
        strict = folded_strict(first)
        row = strict if strict is not None and strict.value is not None else first
        return TaskLine(
            row.model,
            row.task,
            row.source == "starter",
            row.metric,
            row.value,
            (row.ci_low, row.ci_high),
            row.n,
            row.unparsed,
        )
    return None


def summarise(rows: Sequence[MetricRow]) -> tuple[list[TaskLine], list[str], list[str]]:
    """``(lines, tasks with nothing scored, tasks with some judge metrics unscored)``."""
    by_task: dict[tuple[str, str], list[MetricRow]] = {}
    for row in rows:
        by_task.setdefault((row.model, row.task), []).append(row)
    lines: list[TaskLine] = []
    nothing: list[str] = []
    partly: list[str] = []
    for (_model, task), mine in by_task.items():
        line = _headline_line(mine) or _fallback_line(mine)
        if line is None:
            nothing.append(task)
            continue
        lines.append(line)
        if any(r.value is None and not r.n and not r.unparsed for r in mine):
            partly.append(task)
    return lines, list(dict.fromkeys(nothing)), list(dict.fromkeys(partly))


def _number(value: float | None) -> str:
    """Three decimals for rates and correlations, one for larger scales (ratings -100..100)."""
    return fmt(value, 1 if value is not None and abs(value) >= 10 else 3)


def _value(line: TaskLine) -> str:
    low, high = line.ci
    ci = "" if low is None or high is None else f" [{_number(low)}, {_number(high)}]"
    return _number(line.value) + ci


def results_tables(lines: list[TaskLine]) -> list[Table]:
    """One table per model; columns sized so a line fits in :data:`WIDTH` columns. A
    ``mean`` headline is the mean over its groups (perturbations, attributes)."""
    tables = []
    for model in dict.fromkeys(line.model for line in lines):
        table = Table(title=f"trustmh results · {model}", box=box.SIMPLE_HEAD, padding=(0, 1), title_justify="left")
        table.add_column("task", no_wrap=True, overflow="ellipsis", max_width=34)
        table.add_column("headline", no_wrap=True, overflow="ellipsis", max_width=26)
        table.add_column("value [95% CI]", no_wrap=True, justify="right")
        table.add_column("n / unparsed", justify="right", no_wrap=True, min_width=12)
        for line in lines:
            if line.model != model:
                continue
            table.add_row(
                line.task + ("*" if line.starter else ""),
                line.metric,
                _value(line),
                f"{'—' if line.n is None else line.n} / {'—' if line.unparsed is None else line.unparsed}",
            )
        tables.append(table)
    return tables


def not_scored_note(nothing: list[str], partly: list[str], judged: bool) -> str | None:
    """One line: which tasks (or metrics) were not scored, why and what fixes it."""
    if not nothing and not partly:
        return None
    parts = []
    if nothing:
        parts.append(f"{len(nothing)} task{'s' if len(nothing) != 1 else ''} not scored ({', '.join(nothing)})")
    if partly:
        parts.append(f"some metrics of {len(partly)} other task{'s' if len(partly) != 1 else ''} not scored")
    if judged:
        fix = "the judge's replies could not be read (see the unparsed counts in the report)"
    else:
        fix = "they need a judge: rerun with --judge MODEL (an API model; the embedded model cannot judge)"
    return "; ".join(parts) + f" — {fix}."
