"""What a run prints: the results table, the per-task sample/error table, error reasons."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rich.table import Table

from trustmh.core.consoles import ReadableConsole
from trustmh.core.errors import redact
from trustmh.models.call_deadline import ERROR_KINDS
from trustmh.scoring.results import metric_rows

console = ReadableConsole()


def first_line(message: str | None) -> str:
    lines = [line.strip() for line in (message or "").splitlines() if line.strip()]
    # inspect prefixes errors with the exception type; keep the user-facing text.
    for line in reversed(lines):
        if "UserError" in line or "DataFormatError" in line or "MissingRecordError" in line:
            return line.split(":", 1)[-1].strip()
    return lines[-1] if lines else "unknown error"


_RETRY_ERROR = re.compile(r"RetryError[\[(]<Future .* raised (\w+)>[\])]")


def error_reason(message: str | None) -> str:
    """A readable one-line reason for a sample error (inspect reports retries given up as
    ``RetryError(<Future ... raised InternalServerError>)``)."""
    text = first_line(message)
    found = _RETRY_ERROR.search(message or "")
    if found:
        name = found.group(1)
        return f"{ERROR_KINDS.get(name, name)} ({name}; gave up after retries)"
    return text


def sample_errors(log: Any) -> tuple[int, int, str | None]:
    """``(samples, errored samples, first error message)`` of a log, from its header.

    Reads the sample summaries (cheap) rather than whole samples; a log without
    summaries (header-only) counts from ``log.samples`` when present.
    """
    samples = list(log.samples or [])
    if not samples and log.location:
        try:
            from inspect_ai.log import read_eval_log_sample_summaries

            samples = list(read_eval_log_sample_summaries(log.location))
        except Exception:  # noqa: BLE001 - a missing/partial log only loses the error count
            samples = []
    errored = [s for s in samples if getattr(s, "error", None)]
    first = None
    if errored:
        error = errored[0].error
        first = error_reason(getattr(error, "message", None) or str(error))
    return len(samples), len(errored), first


def _fmt(value: float | None, digits: int = 3) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def errors_table(logs: Sequence[Any]) -> Table | None:
    """One row per task × model: status, samples, errored samples and the first reason."""
    table = Table(title="trustmh samples")
    for column in ("model", "task", "status", "samples", "errors", "first error"):
        table.add_column(column, overflow="fold")
    for log in logs:
        total, errored, first = sample_errors(log)
        table.add_row(
            log.eval.model,
            log.eval.task.removeprefix("trustmh/"),
            log.status,
            str(total),
            str(errored),
            redact(first) if first else "—",
        )
    return table if logs else None


def print_results(logs: Sequence[Any]) -> None:
    from trustmh.models.retry_notes import retry_lines
    from trustmh.run.console import not_scored_note, pillar_notes, results_tables, summarise, uninformative_notes
    from trustmh.run.plant_summary import suspected_plant_lines

    rows = [row for log in logs if log.status == "success" for row in metric_rows(log)]
    lines, nothing, partly = summarise(rows)
    for table in results_tables(lines):
        console.print(table)  # as lines when the terminal is too narrow for it: never a cell cut
    _say(uninformative_notes(lines) + pillar_notes(rows, lines) + suspected_plant_lines(rows))
    _say([not_scored_note(nothing, partly, judged=any(row.judge for row in rows))])
    if any(not _clean(log) for log in logs):
        errors = errors_table(logs)
        if errors is not None:
            console.print(errors)
    elif logs:
        _say([f"{len(logs)} task logs, {sum(sample_errors(log)[0] for log in logs)} samples, no errors."])
    _say(retry_lines(logs))
    if any(row.source == "starter" for row in rows):
        _say(["* starter suite: items written by the trustmh authors; not comparable with the published benchmark."])


def _say(notes: Sequence[str | None]) -> None:
    """Each note on a line; piped, a note is never wrapped (a tool reads it whole)."""
    for note in notes:
        if note:
            console.print(note, highlight=False, markup=False, soft_wrap=not console.is_terminal)


def _clean(log: Any) -> bool:
    """Finished without a sample error (the per-task table is printed only otherwise)."""
    return log.status == "success" and sample_errors(log)[1] == 0
