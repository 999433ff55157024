"""Wide tables in and out: MentalBench CSVs and MentalAlign judge files (CSV or xlsx).

Reading is strict (one-line errors naming file, line/row and column); writing is atomic
(a temporary file renamed into place), so an interrupted run never leaves half a file.
Cells are text a spreadsheet never executes and that reads back exactly
(:mod:`trustmh.core.spreadsheet`).
"""

from __future__ import annotations

import csv
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trustmh.core.errors import DataFormatError, UserError
from trustmh.core.paths import check_input_file, check_output_file, os_error_words
from trustmh.core.spreadsheet import escape_xlsx_text, neutralise_csv_cell, restore_csv_cell, unescape_xlsx_text
from trustmh.data.readers import read_csv_rows
from trustmh.mentalalign.schema import ID_COLUMN

TABLE_SUFFIXES = (".csv", ".xlsx")
INTEGER_COLUMNS = (ID_COLUMN,)


@dataclass
class Table:
    """Rows as strings keyed by (whitespace-stripped) column name, plus where each came from."""

    path: Path
    columns: list[str]
    rows: list[dict[str, str]]
    where: list[str]  # "line 7" for CSV, "row 7" for xlsx


def check_table_suffix(path: Path, role: str) -> None:
    if path.suffix.lower() not in TABLE_SUFFIXES:
        raise UserError(f"{path}: {role} must be a .csv or .xlsx file")


def read_table(path: Path, required: Sequence[str]) -> Table:
    """Read a CSV or xlsx table whose first row is the header; ``required`` columns must exist."""
    check_table_suffix(path, "the input")
    if path.suffix.lower() == ".xlsx":
        return _read_xlsx(path, required)
    rows = read_csv_rows(path, required)
    columns = [restore_csv_cell(name) for name in rows[0] if name != "_line"]
    _check_unique_columns(path, "line 1", _csv_header(path))
    where = [f"line {row.pop('_line')}" for row in rows]
    # headers are neutralised on writing like cells (a model label "=cmd|..." is a column name)
    rows = [{restore_csv_cell(name): restore_csv_cell(text) for name, text in row.items()} for row in rows]
    return Table(path, columns, rows, where)


def _csv_header(path: Path) -> list[str]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return [name.strip() for name in next(csv.reader(handle), [])]


def _check_unique_columns(path: Path, where: str, header: Sequence[str]) -> None:
    seen: set[str] = set()
    for name in header:
        if name in seen:
            raise DataFormatError(path, where, f"column {name!r} appears twice in the header")
        seen.add(name)


def _cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))  # ConvID 7 read back as 7.0 must stay "7"
    if isinstance(value, str):
        return unescape_xlsx_text(value)
    return str(value)


def _read_xlsx(path: Path, required: Sequence[str]) -> Table:
    import openpyxl

    check_input_file(path, "an xlsx workbook")
    try:
        workbook = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as error:  # noqa: BLE001 - openpyxl raises many kinds (zip, xml, key errors) for bad files
        raise DataFormatError(path, None, f"expected an xlsx workbook ({type(error).__name__})") from None
    try:
        return _read_sheet(path, workbook, required)
    except UserError:
        raise
    except Exception as error:  # noqa: BLE001 - read_only parses the sheet lazily: its XML fails here
        raise DataFormatError(
            path, None, f"expected an xlsx workbook, its sheet is corrupt ({type(error).__name__})"
        ) from None
    finally:
        workbook.close()


def _read_sheet(path: Path, workbook: Any, required: Sequence[str]) -> Table:
    sheet_rows = workbook.active.iter_rows(values_only=True)
    header = [_cell_text(v).strip() for v in next(sheet_rows, ())]
    missing = [name for name in required if name not in header]
    if missing:
        raise DataFormatError(path, "row 1", f"missing column {missing[0]!r} (found: {', '.join(header)})")
    _check_unique_columns(path, "row 1", header)
    rows: list[dict[str, str]] = []
    where: list[str] = []
    for number, values in enumerate(sheet_rows, start=2):
        if values is None or all(v is None for v in values):
            continue
        # A read-only sheet yields each row only as far as its last cell: short rows are fine.
        rows.append({name: _cell_text(v) for name, v in zip(header, values, strict=False) if name})
        where.append(f"row {number}")
    if not rows:
        raise DataFormatError(path, None, "no data rows after the header")
    columns = [name for name in header if name]
    return Table(path, columns, rows, where)


def first_rows(table: Table, limit: int | None) -> Table:
    if limit is None:
        return table
    return Table(table.path, table.columns, table.rows[:limit], table.where[:limit])


def write_table(path: Path, columns: Sequence[str], rows: Sequence[dict[str, str]]) -> None:
    """Write CSV or xlsx (by suffix) atomically: the file appears whole or not at all."""
    check_table_suffix(path, "the output")
    check_output_file(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as error:
        raise UserError(f"{path}: cannot write ({os_error_words(error)})") from None
    os.close(handle)
    try:
        if path.suffix.lower() == ".xlsx":
            _write_xlsx(Path(temporary), columns, rows)
        else:
            _write_csv(Path(temporary), columns, rows)
        os.replace(temporary, path)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise UserError(f"{path}: cannot write ({os_error_words(error)})") from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _write_csv(path: Path, columns: Sequence[str], rows: Sequence[dict[str, str]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow([neutralise_csv_cell(name) for name in columns])  # headers are user text too
        for row in rows:
            writer.writerow([neutralise_csv_cell(row.get(name, "")) for name in columns])


def _write_xlsx(path: Path, columns: Sequence[str], rows: Sequence[dict[str, str]]) -> None:
    import openpyxl
    from openpyxl.cell import WriteOnlyCell

    workbook = openpyxl.Workbook(write_only=True)
    sheet = workbook.create_sheet()

    def cell(column: str, text: str) -> WriteOnlyCell | int:
        # The released MentalAlign workbooks store ConvID as a number; keep that type.
        if column in INTEGER_COLUMNS and text.isdigit():
            return int(text)
        written = WriteOnlyCell(sheet, value=escape_xlsx_text(text))
        written.data_type = "s"  # always a string: openpyxl would make "=..." a live formula
        return written

    sheet.append([cell("", name) for name in columns])
    for row in rows:
        sheet.append([cell(name, row.get(name, "")) for name in columns])
    workbook.save(path)
