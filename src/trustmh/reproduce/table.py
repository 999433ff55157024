"""Collect every reproduce row and render the table (rich, markdown or JSON)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from trustmh.reproduce.rows import MATCH, UNEXPLAINED, ReproRow

Source = Callable[[str | Path | None], list[ReproRow]]


def sources() -> list[Source]:
    from trustmh.reproduce.alignment import alignment_rows
    from trustmh.reproduce.ethics import ethicmh_rows
    from trustmh.reproduce.privacy import psyleak_rows, tier1_rows, tier2_rows

    return [tier1_rows, tier2_rows, psyleak_rows, ethicmh_rows, alignment_rows]


# Benchmarks whose protocol trustmh follows but that released nothing to re-score, and why: said by
# `trustmh reproduce` so a missing benchmark is never mistaken for one that was left out silently.
NOT_REPRODUCED = {
    "Psychosis-bench (crisis_psychosis_bench)": "upstream (w-is-h/psychosis-bench @ 5cc4b15) released its test "
    "cases and judge prompts (scoring.py) but no model outputs or per-model figures to re-score",
    "VERA-MH (crisis_simulated_risk)": "upstream (SpringCare/VERA-MH @ f813d29) released example conversations "
    "but no judged results or published figures",
}


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


def footnotes(rows: list[ReproRow]) -> dict[str, int]:
    """``{reason: number}`` for the rows that do not match, numbered in order of appearance."""
    numbers: dict[str, int] = {}
    for row in rows:
        if row.status != MATCH and row.reason:
            numbers.setdefault(row.reason, len(numbers) + 1)
    return numbers


def table_cells(row: ReproRow, notes: dict[str, int] | None = None) -> list[str]:
    difference = row.difference
    reason = "" if row.status == MATCH else row.reason
    if notes is not None and reason:
        reason = f"[{notes[reason]}]"
    return [
        row.model,
        row.metric,
        "—" if row.n is None else str(row.n),
        fmt(row.published),
        fmt(row.upstream),
        fmt(row.corrected),
        "—" if difference is None else f"{difference:+.4f}",
        row.status,
        reason,
    ]


HEADER = [
    "model",
    "metric",
    "n",
    "published",
    "ours, upstream parser",
    "ours, corrected",
    "difference",
    "status",
    "why",
]


def by_benchmark(rows: list[ReproRow]) -> dict[str, list[ReproRow]]:
    grouped: dict[str, list[ReproRow]] = {}
    for row in rows:
        grouped.setdefault(row.benchmark, []).append(row)
    return grouped


def markdown(rows: list[ReproRow]) -> str:
    """One table per benchmark, as docs/reproducibility.md carries it."""
    parts = []
    for benchmark, group in by_benchmark(rows).items():
        notes = footnotes(group)
        lines = [f"#### {benchmark}", "", "| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
        for row in group:
            cells = [cell.replace("|", "\\|") for cell in table_cells(row, notes)]
            lines.append("| " + " | ".join(cells) + " |")
        if notes:
            lines.append("")
            lines += [f"[{number}] {reason}  " for reason, number in notes.items()]
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def not_reproduced_text() -> str:
    return "Not reproduced:\n" + "\n".join(f"* {name}: {why}" for name, why in NOT_REPRODUCED.items())


def as_json(rows: list[ReproRow]) -> dict[str, Any]:
    return {
        "rows": [row.as_dict() for row in rows],
        "unexplained": len(unexplained(rows)),
        "not_reproduced": [{"benchmark": name, "why": why} for name, why in NOT_REPRODUCED.items()],
        "columns": {
            "published": "read from upstream's released result files",
            "upstream": "released outputs re-scored with upstream's parsing (bugs included)",
            "corrected": "released outputs re-scored with trustmh's default parsing",
            "difference": "corrected - published",
        },
    }


# docs/reproducibility.md holds each benchmark's table between <!-- reproduce:KEY --> markers.
DOC_SECTIONS = {
    "privacy": "TrustMH-Bench privacy",
    "ethics": "TrustMH-Bench ethics",
    "mentalalign": "MentalBench-Align",
}


def doc_blocks(rows: list[ReproRow]) -> dict[str, str]:
    """``{marker key: markdown of the benchmarks whose name starts with its prefix}``."""
    return {
        key: markdown([row for row in rows if row.benchmark.startswith(prefix)])
        for key, prefix in DOC_SECTIONS.items()
        if any(row.benchmark.startswith(prefix) for row in rows)
    }


def fill_doc(text: str, blocks: dict[str, str]) -> str:
    """``text`` with each marked block replaced by the command's table."""
    for key, block in blocks.items():
        start, end = f"<!-- reproduce:{key} -->", f"<!-- /reproduce:{key} -->"
        if start in text and end in text:
            head, rest = text.split(start, 1)
            _, tail = rest.split(end, 1)
            text = f"{head}{start}\n{block}{end}{tail}"
    return text


def update_doc(doc: str | Path, data_dir: str | Path | None) -> None:
    """Rewrite the marked tables of ``doc`` from a fresh run (docs/reproducibility.md)."""
    path = Path(doc)
    path.write_text(fill_doc(path.read_text(encoding="utf-8"), doc_blocks(reproduce_rows(data_dir))), encoding="utf-8")
