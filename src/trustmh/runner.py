"""Running trustmh tasks through inspect and presenting their results."""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from trustmh.errors import UserError
from trustmh.results import MetricRow, metric_rows, score_summary

console = Console()


def build_tasks(names: Sequence[str], source: str, data_dir: str | None, **task_args: Any) -> list[Any]:
    """Task objects (not registry names): construction validates data before any model call."""
    from trustmh.tasking import TASK_FUNCTIONS, get_task_info

    tasks = []
    for name in names:
        info = get_task_info(name)
        tasks.append(TASK_FUNCTIONS[info.name](source=source, data_dir=data_dir, **task_args))
    return tasks


def _first_line(message: str | None) -> str:
    lines = [line.strip() for line in (message or "").splitlines() if line.strip()]
    # inspect prefixes errors with the exception type; keep the user-facing text.
    for line in reversed(lines):
        if "UserError" in line or "DataFormatError" in line or "MissingRecordError" in line:
            return line.split(":", 1)[-1].strip()
    return lines[-1] if lines else "unknown error"


def raise_on_failed(logs: Sequence[Any]) -> None:
    for log in logs:
        if log.status == "error":
            raise UserError(f"task {log.eval.task} on {log.eval.model} failed: {_first_line(log.error.message if log.error else None)}")


def run_tasks(
    names: Sequence[str],
    models: Sequence[str],
    model_args: dict[str, str],
    judge: str | None,
    limit: int | None,
    log_dir: Path,
    data_dir: str | None,
    source: str,
    max_connections: int | None,
    write_report: bool,
) -> list[Any]:
    """eval-set over the tasks × models, so rerunning the same command resumes."""
    from inspect_ai import eval_set

    import trustmh._registry  # noqa: F401  (providers and tasks)

    tasks = build_tasks(names, source, data_dir)
    log_dir.mkdir(parents=True, exist_ok=True)
    success, logs = eval_set(
        tasks=tasks,
        log_dir=str(log_dir),
        model=list(models),
        model_args=dict(model_args),
        model_roles={"judge": judge} if judge else None,
        limit=limit,
        max_connections=max_connections,
        retry_attempts=2,
        fail_on_error=0.1,
    )
    print_results(logs)
    if not success:
        raise_on_failed(logs)
    if write_report:
        _write_report(log_dir)
    return logs


def _write_report(log_dir: Path) -> None:
    try:
        from trustmh.report import build_report
    except ImportError:
        return
    path = build_report([log_dir], log_dir / "report.html")
    console.print(f"report: {path}")


def score_responses(
    task: str,
    responses: Path,
    data_dir: str | None,
    judge: str | None,
    source: str,
    log_dir: Path | None,
) -> dict[str, object]:
    """Re-score recorded outputs with the replay model; returns the ``trustmh score`` JSON."""
    from inspect_ai import eval

    import trustmh._registry  # noqa: F401

    (built,) = build_tasks([task], source, data_dir)
    target_dir = log_dir or Path(tempfile.mkdtemp(prefix="trustmh-score-"))
    logs = eval(
        built,
        model=f"trustmh/replay/{responses.stem}",
        model_args={"responses": str(responses)},
        model_roles={"judge": judge} if judge else None,
        log_dir=str(target_dir),
        display="none",
        fail_on_error=True,
    )
    raise_on_failed(logs)
    return score_summary(logs[0])


def _fmt(value: float | None, digits: int = 3) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def results_table(rows: Sequence[MetricRow]) -> Table:
    table = Table(title="trustmh results")
    for column in ("model", "pillar", "task", "metric", "value", "95% CI", "n", "unparsed", "data"):
        table.add_column(column, overflow="fold")
    for row in rows:
        if "[" in row.metric:  # per-group breakdowns belong in the report, not the summary
            continue
        ci = "—" if row.ci_low is None else f"[{_fmt(row.ci_low)}, {_fmt(row.ci_high)}]"
        value = "not scored" if row.value is None and (row.n or 0) == 0 else _fmt(row.value)
        table.add_row(
            row.model, row.pillar, row.task, row.metric, value, ci,
            "—" if row.n is None else str(row.n), "—" if row.unparsed is None else str(row.unparsed),
            "starter*" if row.source == "starter" else row.source,
        )
    return table


def print_results(logs: Sequence[Any]) -> None:
    rows = [row for log in logs if log.status == "success" for row in metric_rows(log)]
    if rows:
        console.print(results_table(rows))
    if any(row.source == "starter" for row in rows):
        console.print("* starter suite: items written by the trustmh authors; not comparable with the published benchmark.")
