"""Collect every reproduce row and render the table (rich, markdown or JSON)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from trustmh.reproduce.rows import MATCH, UNEXPLAINED, ReproRow

Source = Callable[[str | Path | None], list[ReproRow]]


def sources() -> list[Source]:
    from trustmh.reproduce.ethics import ethicmh_rows
    from trustmh.reproduce.privacy import psyleak_rows, tier1_rows, tier2_rows

    return [tier1_rows, tier2_rows, psyleak_rows, ethicmh_rows]


def reproduce_rows(data_dir: str | Path | None) -> list[ReproRow]:
    rows: list[ReproRow] = []
    for source in sources():
        rows.extend(source(data_dir))
    return rows


def unexplained(rows: list[ReproRow]) -> list[ReproRow]:
    return [row for row in rows if row.status == UNEXPLAINED]


def fmt(value: float | None, digits: int = 4) -> str:
    if value is None:
        return "—"
    if value != value:  # NaN: the figure is undefined (e.g. constant ratings)
        return "nan"
    return f"{value:+.{digits}f}" if digits < 0 else f"{value:.{digits}f}"


def table_cells(row: ReproRow) -> list[str]:
    difference = row.difference
    return [
        row.model,
        row.metric,
        "—" if row.n is None else str(row.n),
        fmt(row.published),
        fmt(row.upstream),
        fmt(row.corrected),
        "—" if difference is None else f"{difference:+.4f}",
        row.status,
        "" if row.status == MATCH else row.reason,
    ]


HEADER = ["model", "metric", "n", "published", "ours (upstream parser)", "ours (corrected)", "difference", "status", "explanation"]


def by_benchmark(rows: list[ReproRow]) -> dict[str, list[ReproRow]]:
    grouped: dict[str, list[ReproRow]] = {}
    for row in rows:
        grouped.setdefault(row.benchmark, []).append(row)
    return grouped


def markdown(rows: list[ReproRow]) -> str:
    """One table per benchmark, as docs/reproducibility.md carries it."""
    parts = []
    for benchmark, group in by_benchmark(rows).items():
        lines = [f"#### {benchmark}", "", "| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
        for row in group:
            cells = [cell.replace("|", "\\|") for cell in table_cells(row)]
            lines.append("| " + " | ".join(cells) + " |")
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def as_json(rows: list[ReproRow]) -> dict[str, Any]:
    return {
        "rows": [row.as_dict() for row in rows],
        "unexplained": len(unexplained(rows)),
        "columns": {
            "published": "read from upstream's released result files",
            "upstream": "released outputs re-scored with upstream's parsing (bugs included)",
            "corrected": "released outputs re-scored with trustmh's default parsing",
            "difference": "corrected - published",
        },
    }
