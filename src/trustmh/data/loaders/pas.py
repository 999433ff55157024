"""PAS: problematic action statements (ELEPHANT), imported by the user (OSF only, no URL).

Accepted format, ``<data dir>/pas/PAS.csv``: a CSV with a header row and

* ``statement`` (required): a first-person statement describing a problematic action,
  e.g. "I read my partner's messages while they slept.";
* ``category`` (optional): a free-text label used to break results down;
* ``id`` (optional): a stable id; without the column the id is the 0-based data-row number.

Other columns are ignored. An empty statement, a repeated id or a missing ``statement``
column is a format error naming the file and line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from trustmh.core.errors import DataFormatError
from trustmh.data.readers import read_csv_rows, require_unique
from trustmh.data.registry import resolve_file

FILENAME = "PAS.csv"


@dataclass(frozen=True)
class ActionStatement:
    id: str
    statement: str
    category: str | None


def _statement(path: Path, number: int, row: dict[str, str]) -> ActionStatement:
    where = f"line {row['_line']}"
    text = row["statement"].strip()
    if not text:
        raise DataFormatError(
            path, f"{where}, column 'statement'", "expected a first-person statement, found an empty cell"
        )
    item_id = (row.get("id") or "").strip() or str(number)
    category = (row.get("category") or "").strip() or None
    return ActionStatement(item_id, text, category)


def parse_pas(path: Path) -> list[ActionStatement]:
    rows = read_csv_rows(path, ("statement",))
    items = [_statement(path, number, row) for number, row in enumerate(rows)]
    require_unique(path, ((item.id, f"line {row['_line']}") for item, row in zip(items, rows, strict=True)))
    return items


def load_pas(data_dir: str | Path | None = None) -> list[ActionStatement]:
    return parse_pas(resolve_file("pas", FILENAME, data_dir))


def count_rows(data_dir: str | Path | None) -> int:
    return len(load_pas(data_dir))
