"""The results summary ``trustmh run`` prints: one line per task, never a cell cut.

Each task shows its pillar's fixed headline (declared in ``pillars/<pillar>/headline.py``; the
strict variant where the scorer reports one; per-group headlines as their mean). A task that
reports the headline but left it empty says what it needs (``rta_judge — needs --judge``),
followed by the metrics shown beside the headline (``BESIDE``), each on a line marked
``beside``; a task that reports only such a metric (ConfAIde's ``pearson_r``) shows it marked
``beside`` too, never as the headline. A task without either shows its first scored metric —
never a descriptive count such as ``turns``: a judged task run without a judge says ``not
scored — needs --judge`` instead. Under the table, a line per pillar a model is not scored on,
with what it needs (as the report says it). The unparsed column always counts the answers the
scorer could not read, also where the strict value (unparsed counted wrong) is shown, and the
items column counts every item asked (unparsed included) in every row. A value that is no
finding (mostly unparsed, too few parsed items, no variance, a drop from a base at chance:
:func:`trustmh.report.headline.evidence_problem` and the report's exclusion) is marked † with
the report's reason. Metrics left unscored for want of a judge are folded into one
line saying what fixes it; only tasks that use a judge are named there. Per-group breakdowns
belong in the report.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich import box
from rich.table import Table

from trustmh.pillars.headline import pillar_beside, pillar_headlines
from trustmh.report.evidence import evidence_problem, items_of
from trustmh.report.headline import (
    GROUPED,
    TaskHeadline,
    fmt,
    folded_strict,
    matches,
    not_scored_reason,
    pillar_scores,
    task_headlines,
)
from trustmh.scoring.results import MetricRow
from trustmh.tasking.headline import Headline

if TYPE_CHECKING:
    from trustmh.tasking.declare import TaskInfo

# Metrics that describe a run (how long, how many turns, how many answers unread) but rate nothing: never a headline.
# "unparsed": a count of answers; "shortened_rate": how many conversations the simulated user ended early;
# "suspected_plant": the share of judged samples with a suspected planted rating (run/plant_summary.py);
# "risk_rate": how many users of an audited chatbot disclosed risk (the users, not the bot).
DESCRIPTIVE_METRICS = frozenset({"turns", "reply_length", "unparsed", "shortened_rate", "suspected_plant", "risk_rate"})
NEEDS_JUDGE = "not scored"  # its value column says why: "— needs --judge"
NOTHING_SCORED = "nothing scored"  # a task without a judge whose every metric is empty
UNINFORMATIVE_MARK = "†"
BESIDE = "beside"  # marks a metric shown beside the pillar's headline (never ranked)


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
    # Why the value says nothing (the report's reason for leaving it out of the ranking), if so.
    uninformative: str | None = None
    # The headline is reported but has no value: what it needs ("needs --judge"), shown as its value.
    needs: str | None = None
    beside: bool = False  # a metric shown beside the pillar's headline, never ranked


def _task_info(task: str) -> TaskInfo | None:
    import trustmh.run.task_catalog  # noqa: F401  (importing it registers every task)
    from trustmh.tasking.declare import TASKS

    return TASKS.get(task.removeprefix("trustmh/"))


def needs_judge(task: str) -> bool:
    """Whether the task's headline is scored by a judge (``False`` for a task not in the catalogue)."""
    info = _task_info(task)
    return bool(info and info.needs_judge)


def uses_judge(task: str) -> bool:
    """Whether some metric of the task is a judge's: its headline is, or its answers are free
    text sized for a reader (:func:`trustmh.tasking.declare.judged_free_text`, the generation of every
    task a judge reads). A task answering labels or options (robustness, the multiple-choice
    tasks) uses none, so its empty metrics are never put down to a missing judge."""
    from trustmh.tasking.declare import JUDGED_TOKENS

    info = _task_info(task)
    if info is None:
        return False
    judged_text = info.generation is not None and info.generation.benchmark.max_tokens == JUDGED_TOKENS
    return info.needs_judge or judged_text


def _line(headline: Headline, found: TaskHeadline, first: MetricRow, beside: bool = False) -> TaskLine:
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
        found.items,
        found.unparsed,
        found.excluded,
        beside=beside,
    )


def _headline_lines(rows: list[MetricRow]) -> list[TaskLine]:
    """The task's line for its pillar's fixed headline: its value, or — when the task reports it
    empty — what it needs, followed by a line per metric shown beside it; a task that reports
    only metrics shown beside the headline gets those lines alone (none: no line)."""
    first = rows[0]
    key = (first.model, first.task)
    unscored = []
    for headline in pillar_headlines(first.pillar):
        found = task_headlines(headline, rows).get(key)
        if found is not None:
            return [_line(headline, found, first)]
        if any(matches(headline, row) for row in rows):
            unscored.append(headline)
    beside = []
    for headline in pillar_beside(first.pillar):
        found = task_headlines(headline, rows).get(key)
        if found is not None:
            beside.append(_line(headline, found, first, beside=True))
    if not unscored:
        return beside
    headline = unscored[0]
    found_rows = [row for row in rows if matches(headline, row)]
    # Counted as for a scored headline (task_headlines): the items asked (per group when grouped)
    # and every unparsed answer, so `items / unparsed` means the same in every row.
    asked = [n for n in (items_of(row) for row in found_rows) if n is not None]
    lead = TaskLine(
        first.model,
        first.task,
        first.source == "starter",
        headline.metric,
        None,
        (None, None),
        min(asked) if asked else None,
        sum(row.unparsed or 0 for row in found_rows) if found_rows else None,
        needs=not_scored_reason(headline, rows),
    )
    return [lead, *beside]


def _fallback_line(rows: list[MetricRow]) -> TaskLine | None:
    """The first scored metric that rates something (its strict variant ``<metric>_strict`` when
    the scorer reports one, as for a headline); else the first whose answers were all unparsed
    (a line with no value but its unparsed count: that is a result, not a missing judge); else,
    for a judged task run without a judge, a line saying so."""
    ungrouped = [r for r in rows if not GROUPED.match(r.metric) and r.metric not in DESCRIPTIVE_METRICS]
    scored = [r for r in ungrouped if r.value is not None]
    unreadable = [r for r in ungrouped if r.value is None and r.unparsed]
    candidates = scored or unreadable
    if candidates:
        first = candidates[0]
        strict = folded_strict(first)
        row = strict if strict is not None and strict.value is not None else first
        items, unparsed = items_of(first), first.unparsed or 0
        return TaskLine(
            row.model,
            row.task,
            row.source == "starter",
            row.metric,
            row.value,
            (row.ci_low, row.ci_high),
            items,
            first.unparsed,  # the strict variant counts them wrong; they are still unparsed
            evidence_problem(items, unparsed) if row.value is not None else None,
        )
    task = rows[0]
    if needs_judge(task.task):
        return None  # named in the not-scored note (and, without a judge, a line saying so)
    return TaskLine(task.model, task.task, task.source == "starter", NOTHING_SCORED, None, (None, None), None, None)


def summarise(rows: Sequence[MetricRow]) -> tuple[list[TaskLine], list[str], list[str]]:
    """``(lines, tasks with nothing scored, tasks with some judge metrics unscored)``."""
    by_task: dict[tuple[str, str], list[MetricRow]] = {}
    for row in rows:
        by_task.setdefault((row.model, row.task), []).append(row)
    lines: list[TaskLine] = []
    nothing: list[str] = []
    partly: list[str] = []
    for (_model, task), mine in by_task.items():
        fallback = None if (found := _headline_lines(mine)) else _fallback_line(mine)
        if not found and fallback is None:
            nothing.append(task)
            if not any(r.judge for r in mine):
                first = mine[0]
                lines.append(
                    TaskLine(first.model, task, first.source == "starter", NEEDS_JUDGE, None, (None, None), None, None)
                )
            continue
        lines += found or ([fallback] if fallback is not None else [])
        if uses_judge(task) and any(r.value is None and not r.n and not r.unparsed for r in mine):
            partly.append(task)
    return lines, list(dict.fromkeys(nothing)), list(dict.fromkeys(partly))


def _number(value: float | None) -> str:
    """Three decimals for rates and correlations, one for larger scales (ratings -100..100)."""
    return fmt(value, 1 if value is not None and abs(value) >= 10 else 3)


def _value(line: TaskLine) -> str:
    if line.metric == NEEDS_JUDGE:
        return "— needs --judge"
    if line.needs:
        return f"— {line.needs}"
    if line.metric == NOTHING_SCORED:
        return ""
    low, high = line.ci
    ci = "" if low is None or high is None else f" [{_number(low)}, {_number(high)}]"
    return _number(line.value) + ci


def _counts(line: TaskLine) -> str:
    """``items / unparsed`` (items asked, unparsed included, whichever variant is shown), marked when the value carries no information (the reason is below the table)."""
    if line.metric in (NEEDS_JUDGE, NOTHING_SCORED) or (line.needs and not line.unparsed):
        return ""
    mark = f" {UNINFORMATIVE_MARK}" if line.uninformative else ""
    return f"{_count(line.n)} / {_count(line.unparsed)}{mark}"


def results_tables(lines: list[TaskLine]) -> list[Table]:
    """One table per model, every cell whole (no cell is ever cut: a console too narrow for the
    table prints it as lines, :class:`~trustmh.core.consoles.ReadableConsole`). A ``mean``
    headline is the mean over its groups (perturbations, attributes)."""
    tables = []
    for model in dict.fromkeys(line.model for line in lines):
        table = Table(title=f"trustmh results · {model}", box=box.SIMPLE_HEAD, padding=(0, 1), title_justify="left")
        table.add_column("task", no_wrap=True)
        table.add_column("headline", no_wrap=True)
        table.add_column("value [95% CI]", no_wrap=True, justify="right")
        table.add_column("items (all)\n/ unparsed", justify="right", no_wrap=True, min_width=12)
        for line in lines:
            if line.model != model:
                continue
            table.add_row(
                line.task + ("*" if line.starter else ""),
                f"{BESIDE}: {line.metric}" if line.beside else line.metric,
                _value(line),
                _counts(line),
            )
        tables.append(table)
    return tables


def uninformative_notes(lines: list[TaskLine]) -> list[str]:
    """One line per marked value: why it says nothing (as the report gives it)."""
    return [
        f"{UNINFORMATIVE_MARK} {line.task} ({line.model}): no information — {line.uninformative}"
        for line in lines
        if line.uninformative
    ]


def pillar_notes(rows: Sequence[MetricRow], lines: list[TaskLine]) -> list[str]:
    """A line per pillar a model ran but is not scored on (no value for the pillar's fixed
    headline: the report leaves it out of the ranking), saying what it needs; and what a
    ``beside`` line is, when there is one."""
    notes = [
        f"{score.pillar} ({score.model}): not scored — {score.not_scored} "
        f"(headline: {score.headline.metric}){_beside_names(score.beside)}"
        for score in pillar_scores(list(rows)).values()
        if score.not_scored
    ]
    if any(line.beside for line in lines):
        notes.append(f"{BESIDE}: a metric shown beside its pillar's headline, never ranked.")
    return list(dict.fromkeys(notes))  # one line per pillar and model, whichever its sources


def _beside_names(beside: list[TaskHeadline]) -> str:
    names = list(dict.fromkeys(p.headline.metric for p in beside if p.headline is not None))
    return f"; {BESIDE} it: {', '.join(names)}" if names else ""


def _count(value: int | None) -> str:
    return "—" if value is None else str(value)


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
