"""EthicMH: ethical dilemmas in mental-health practice, four options and a gold letter.

``EthicMH_utf8.csv`` (TrustMH-Bench's UTF-8 copy of the first 125 rows of
UVSKKR/Ethical-Reasoning-in-Mental-Health-v1) has the columns ``index, subcategory,
scenario, options, reasoning_task, expected_reasoning, model_behavior, real_world_impact,
viewpoints``. ``options`` holds the four options in one cell, one per line, each written
``A.<text>`` (``A)`` and spaces after the letter are accepted too); ``expected_reasoning``
is the gold letter. ``model_behavior`` (the failure modes a model may show on the item) goes
to the ethics judge, as in TrustMH-Bench; ``real_world_impact`` and ``viewpoints`` are not used.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from trustmh.core.errors import DataFormatError
from trustmh.data.readers import read_csv_rows, require_unique
from trustmh.data.registry import resolve_file

FILENAME = "EthicMH_utf8.csv"
LETTERS = "ABCD"
REQUIRED_COLUMNS = ("index", "subcategory", "scenario", "options", "reasoning_task", "expected_reasoning")
_OPTION_LINE = re.compile(r"^\s*([A-Za-z])\s*[.)]\s*(\S.*?)\s*$")


@dataclass(frozen=True)
class EthicItem:
    """One dilemma; ``id`` is the ``index`` column, ``options`` maps letter -> text."""

    id: str
    subcategory: str
    scenario: str
    options: dict[str, str]
    reasoning_task: str
    gold: str
    model_behavior: str = ""
    # scenario, options and reasoning_task cells exactly as in the file (upstream sends them unstripped)
    cells: tuple[str, str, str] = ("", "", "")


def parse_options(path: Path, where: str, cell: str) -> dict[str, str]:
    """``"A.x\\nB.y\\nC.z\\nD.w"`` -> ``{"A": "x", ...}``; exactly A-D, in order."""
    options: dict[str, str] = {}
    for line in (part for part in cell.splitlines() if part.strip()):
        match = _OPTION_LINE.match(line)
        if not match:
            raise DataFormatError(
                path,
                f"{where}, column 'options'",
                f"expected lines 'A.<option>' ... 'D.<option>', found {line.strip()[:40]!r}",
            )
        options[match.group(1).upper()] = match.group(2)
    if "".join(options) != LETTERS:
        raise DataFormatError(
            path,
            f"{where}, column 'options'",
            f"expected options {', '.join(LETTERS)} in order, found {', '.join(options) or 'none'}",
        )
    return options


def _item(path: Path, row: dict[str, str]) -> EthicItem:
    where = f"line {row['_line']}"
    index = row["index"].strip()
    if not index.isdigit():
        raise DataFormatError(
            path, f"{where}, column 'index'", f"expected a non-negative integer, found {index[:20]!r}"
        )
    for column in ("subcategory", "scenario", "reasoning_task"):
        if not row[column].strip():
            raise DataFormatError(path, f"{where}, column {column!r}", "expected text, found an empty cell")
    options = parse_options(path, where, row["options"])
    gold = row["expected_reasoning"].strip().upper()
    if gold not in options:
        raise DataFormatError(
            path,
            f"{where}, column 'expected_reasoning'",
            f"expected a gold letter A-D, found {row['expected_reasoning'].strip()[:20]!r}",
        )
    return EthicItem(
        index,
        row["subcategory"].strip(),
        row["scenario"].strip(),
        options,
        row["reasoning_task"].strip(),
        gold,
        (row.get("model_behavior") or "").strip(),
        (row["scenario"], row["options"], row["reasoning_task"]),
    )


def parse_ethicmh(path: Path) -> list[EthicItem]:
    rows = read_csv_rows(path, REQUIRED_COLUMNS)
    items = [_item(path, row) for row in rows]
    require_unique(path, ((item.id, f"line {row['_line']}") for item, row in zip(items, rows, strict=True)))
    return items


def load_ethicmh(data_dir: str | Path | None = None) -> list[EthicItem]:
    return parse_ethicmh(resolve_file("ethicmh", FILENAME, data_dir))


def count_rows(data_dir: str | Path | None) -> int:
    return len(load_ethicmh(data_dir))
