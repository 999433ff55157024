"""The MentalAlign xlsx reader (calamine) against openpyxl, cell by cell, on the released files."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

from trustmh.core.errors import DataFormatError
from trustmh.data.loaders.mentalalign import HUMAN_FILE, JUDGE_FILES, _read_xlsx


def _same(a: object, b: object) -> bool:
    both_nan = isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b)
    return both_nan or (type(a) is type(b) and a == b)


@pytest.mark.parametrize("name", [HUMAN_FILE, *JUDGE_FILES.values()])
def test_every_cell_reads_as_openpyxl_reads_it(shared_data: Path, name: str) -> None:
    path = shared_data / "mentalalign70k" / name
    header, rows = _read_xlsx(path)
    reference = pd.read_excel(path, dtype=str, engine="openpyxl")
    assert header == [str(c) for c in reference.columns]
    expected = reference.to_numpy(dtype=object).tolist()
    assert len(rows) == len(expected) == 1000
    differing = [
        (r, c)
        for r, (got, want) in enumerate(zip(rows, expected, strict=True))
        for c in range(len(header))
        if not _same(got[c], want[c])
    ]
    assert differing == []


@pytest.mark.parametrize("content", [b"not a workbook", b"PK\x03\x04 truncated zip"])
def test_a_file_that_is_no_workbook_is_one_line(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "ratings.xlsx"
    path.write_bytes(content)
    with pytest.raises(DataFormatError, match="expected an .xlsx workbook"):
        _read_xlsx(path)
