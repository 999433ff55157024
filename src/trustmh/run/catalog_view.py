"""What ``trustmh tasks`` lists: each task and how many samples it has offline."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rich.table import Table
from rich.text import Text

from trustmh.core.errors import UserError


@contextmanager
def offline() -> Iterator[None]:
    """Counting samples must never download: pretend to be offline meanwhile."""
    previous = os.environ.get("TRUSTMH_OFFLINE")
    os.environ["TRUSTMH_OFFLINE"] = "1"
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop("TRUSTMH_OFFLINE", None)
        else:
            os.environ["TRUSTMH_OFFLINE"] = previous


def _count(name: str, source: str, data_dir: str | None) -> int | None:
    from trustmh.run.task_catalog import task_function

    try:
        return len(task_function(name)(source=source, data_dir=data_dir).dataset)
    except UserError:
        return None


def task_rows(data_dir: str | None) -> list[dict[str, Any]]:
    from trustmh.run.task_catalog import all_tasks, task_parameters

    rows: list[dict[str, Any]] = []
    with offline():
        for info in all_tasks():
            rows.append(
                {
                    "task": info.name,
                    "pillar": info.pillar,
                    "description": info.description,
                    "datasets": list(info.datasets),
                    "metrics": list(info.metrics),
                    "needs_judge": info.needs_judge,
                    "arguments": task_parameters(info.name),
                    "samples_available": {
                        "starter": _count(info.name, "starter", None),
                        "benchmark": _count(info.name, "benchmark", data_dir),
                    },
                }
            )
    return rows


def tasks_table(rows: list[dict[str, Any]]) -> Table:
    """The task list as ``trustmh tasks`` prints it."""
    table = Table(title="trustmh tasks")
    for column in ("task", "pillar", "datasets", "metrics", "starter", "benchmark"):
        table.add_column(column, overflow="fold")
    for row in rows:
        available = row["samples_available"]
        table.add_row(  # plain text: a grouped metric's "[turns=*]" is no markup
            Text(row["task"]),
            Text(row["pillar"]),
            Text(", ".join(row["datasets"])),
            Text(", ".join(row["metrics"])),
            Text(str(available["starter"])),
            Text("-" if available["benchmark"] is None else str(available["benchmark"])),
        )
    return table


def samples_note(data_dir: str | None) -> str:
    """What the two sample counts are, and how to get the benchmark's."""
    where = f"in {data_dir}" if data_dir else "without --data-dir"
    return (
        "starter: items shipped with trustmh, what `trustmh run` runs without --data-dir (not comparable "
        f"with the published benchmarks); benchmark: the original dataset's items found {where} "
        "(- = none; `trustmh data status --data-dir DATA` says which datasets are where)."
    )
