"""A plain CSV labelling sheet, for teams that label in a spreadsheet.

**Sheet** (:func:`sheet_csv`): one row per item: ``item``, ``conversation``, ``answer``, then per
field the judge's verdict ``judge:FIELD`` (left out when the set is blind) and an empty ``FIELD``
column to fill, and empty ``rater`` and ``skipped`` columns, plus the set id and rubric
fingerprints. Every cell a spreadsheet would run as a formula starts with ``'``
(:mod:`trustmh.core.spreadsheet`): the answers are model output, which is hostile.

**Filled sheet** (:func:`read_sheet`): the same columns; each rater fills a copy (or adds rows)
with their name in ``rater``. ``skipped`` = ``yes`` counts the row as skipped; an empty field
cell is unanswered.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from trustmh.core.errors import DataFormatError
from trustmh.core.spreadsheet import neutralise_csv_cell, restore_csv_cell
from trustmh.data.readers import read_csv_rows
from trustmh.labels.labelset import LabelSet
from trustmh.labels.reading import DATA_ITEM, DATA_RUBRICS, DATA_SET, Checker, Imported

JUDGE_PREFIX = "judge:"
YES = ("yes", "y", "1", "true")


def _columns(labelset: LabelSet) -> list[str]:
    per_field = []
    for spec in labelset.fields:
        per_field += ([] if labelset.blind else [JUDGE_PREFIX + spec.name]) + [spec.name]
    return [DATA_ITEM, "conversation", "answer", *per_field, "rater", "skipped", DATA_SET, DATA_RUBRICS]


def sheet_csv(labelset: LabelSet) -> str:
    """The labelling sheet of the set (module docstring)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    columns = _columns(labelset)
    writer.writerow(columns)
    for item in labelset.items:
        row = {
            DATA_ITEM: item.item,
            "conversation": "\n\n".join(f"{t['role']}: {t['text']}" for t in item.conversation),
            "answer": item.answer,
            DATA_SET: labelset.set_id,
            DATA_RUBRICS: labelset.rubric_fingerprint,
        }
        for spec in labelset.fields:
            value = item.judge.get(spec.name)
            row[JUDGE_PREFIX + spec.name] = "" if value is None else value if isinstance(value, str) else f"{value:g}"
        writer.writerow([neutralise_csv_cell(row.get(name, "")) for name in columns])
    return buffer.getvalue()


def read_sheet(path: Path, labelset: LabelSet) -> Imported:
    """The ratings of filled sheets (module docstring)."""
    rows = read_csv_rows(path, [DATA_ITEM, "rater", DATA_SET, DATA_RUBRICS])
    checker, imported = Checker(labelset, path), Imported(sources=[str(path)])
    for row in rows:
        where = f"line {row['_line']}"
        cells = {key: restore_csv_cell(value.strip()) for key, value in row.items() if isinstance(value, str)}
        item = checker.task_item(cells, where)
        rater = cells.get("rater", "")
        if not rater:
            raise DataFormatError(path, f"{where}, column 'rater'", "expected the rater's name")
        if cells.get("skipped", "").lower() in YES:
            imported.skipped[rater] += 1
            continue
        for spec in labelset.fields:
            raw = cells.get(spec.name, "")
            if raw:
                imported.ratings.append(checker.rating(item, spec.name, rater, raw, f"{where}, column {spec.name!r}"))
            else:
                imported.unanswered[rater] += 1
    return imported
