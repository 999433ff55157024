"""MentalAlign-70k rating files: one human file and one file per LLM judge.

Layout (xlsx as released, or the same table as CSV): a ``ConvID`` column, an optional
``context`` column and one column ``<prefix>_<key>`` per response model, where ``prefix`` is
``human_response`` or ``judge_response`` and ``key`` names the model that wrote the
response (``original``, ``claude``, ...). Each cell is a JSON object with the seven
attribute scores (1-5), possibly inside a ```` ```json ```` fence; judges add ``Overall``
and ``Explanation``, which are ignored. Column names may carry stray spaces.

Validation happens here, at the edge: structural problems (missing file or column,
duplicate or mismatched ConvIDs, empty file) raise a one-line
:class:`~trustmh.core.errors.DataFormatError`; a bad *cell* is not fatal but is recorded as
``UNPARSED`` so the analysis can count and exclude it.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
import string
import zipfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import cast

import numpy as np

from trustmh.core.errors import DataFormatError, UserError
from trustmh.core.paths import check_input_file
from trustmh.data.readers import read_text
from trustmh.mentalalign.schema import (
    ATTRIBUTES,
    DEFAULT_SCORE_RANGE,
    HUMAN_FILE,
    HUMAN_PREFIX,
    ID_COLUMN,
    JUDGE_FILES,
    JUDGE_PREFIX,
    SELF_FAMILY,
    column,
)

# Cell status codes stored per (conversation, response model, attribute).
OK, MISSING, UNPARSED = 0, 1, 2
# Re-exported for the loader's users; the facts live in trustmh.mentalalign.schema.
__all__ = ["ATTRIBUTES", "HUMAN_FILE", "HUMAN_PREFIX", "JUDGE_FILES", "JUDGE_PREFIX", "SELF_FAMILY", "RatingTable"]

_LETTERS = string.ascii_letters
_NUMBER_TYPES = (int, float)
_INTEGRAL_FLOAT = re.compile(r"^(-?\d+)\.0+$")
_EMPTY = -2.0
_UNPARSED_CELL = (-1.0,) * len(ATTRIBUTES)
_EMPTY_CELL = (_EMPTY,) * len(ATTRIBUTES)


@dataclass(frozen=True)
class RatingTable:
    """Scores of one rater (human or a judge) for every conversation and response model.

    ``scores`` and ``status`` have shape ``(conversations, keys, attributes)``; a score is NaN
    unless its status is ``OK``. ``rows`` gives each conversation's row number in the file
    (header = row 1) so later errors can point at it.
    """

    path: str
    prefix: str
    conv_ids: tuple[str, ...]
    rows: tuple[int, ...]
    keys: tuple[str, ...]
    scores: np.ndarray
    status: np.ndarray

    def column(self, key: str) -> str:
        return column(self.prefix, key)


def _cell_object(text: object) -> dict[str, object] | None | bool:
    """A cell's JSON object (a Markdown fence, optionally with a language tag, removed); ``False``
    for an empty cell, ``None`` for one that is not a JSON object."""
    if text is None or (isinstance(text, float) and np.isnan(text)):
        return False
    raw = str(text).strip()
    if not raw:
        return False
    if raw.startswith("```"):
        raw = raw[3:].lstrip(_LETTERS)
        if raw.endswith("```"):
            raw = raw[:-3]
    try:
        obj = json.loads(raw)
    except ValueError:
        return None
    return obj if type(obj) is dict else None


def parse_cell(text: object) -> tuple[float, ...]:
    """The seven raw scores of one cell: numbers as given, -1 if not a number, -2 if empty.

    Per attribute, so a cell missing one attribute still contributes the other six. The
    range check is done on the whole array afterwards (:func:`cell_status`).
    """
    obj = _cell_object(text)
    if obj is False:
        return _EMPTY_CELL
    if not isinstance(obj, dict):
        return _UNPARSED_CELL
    # type() rather than isinstance(): True/False are not scores. (A hot loop: 50k cells.)
    # type() rather than isinstance() narrows nothing for mypy: the comprehension holds floats only.
    return tuple([v if type(v) in _NUMBER_TYPES else -1.0 for v in map(obj.get, ATTRIBUTES)])  # type: ignore[misc]


def is_released_human_file(path: Path) -> bool:
    """``path`` is MentalAlign-70k's human file as released (its catalogue sha256): read as
    published, its 8 ratings of 6 counted as unparsed like any off-scale score (they are upstream's
    data, and MentalBench's figures were computed on them; docs/align.md)."""
    from trustmh.data.registry import _digest_once, get_dataset

    return (
        path.suffix.lower() == ".xlsx" and _digest_once(path) == get_dataset("mentalalign70k").file(HUMAN_FILE).sha256
    )


def check_human_cell(cell: object, path: Path, where: str) -> None:
    """Refuse a human rating that is not a score on the declared scale (issue 25): a label or a
    quoted number, true/false, a list, NaN/Infinity, or a number outside 0-5 (1-5, and
    MentalBench's 0 for an unusable response). In a judge's file such a value is the judge's
    failure and counts as unparsed; in a human file it is a typo or a broken export, and silently
    dropping it would change the reference every judge is measured against. (An empty cell, an
    attribute left out or null, and a cell that is not a JSON object stay "not rated".)"""
    obj = _cell_object(cell)
    if not isinstance(obj, dict):
        return
    low, high = DEFAULT_SCORE_RANGE
    for attribute in ATTRIBUTES:
        value = obj.get(attribute)
        if value is None:
            continue
        numeric = type(value) in _NUMBER_TYPES
        if not numeric or not math.isfinite(value) or not low <= value <= high:  # type: ignore[arg-type,operator]
            found = json.dumps(value)[:40]  # as the file wrote it: "4" (quoted), true, null, NaN, 7
            raise DataFormatError(
                path, f"{where}, attribute {attribute!r}", f"expected a number from {low:g} to {high:g}, found {found}"
            )


def cell_status(values: np.ndarray, score_range: tuple[float, float] = DEFAULT_SCORE_RANGE) -> np.ndarray:
    """``OK``, ``MISSING`` (empty cell) or ``UNPARSED`` (not a number, or outside ``score_range``).

    The released human file marks some unusable responses with all-zero scores; the default
    range (0-5, as MentalBench) keeps them, ``STRICT_SCORE_RANGE`` (1-5) makes them unparsed.
    """
    low, high = score_range
    with np.errstate(invalid="ignore"):
        in_range = (values >= low) & (values <= high)
    return np.where(values == _EMPTY, MISSING, np.where(in_range, OK, UNPARSED)).astype(np.int8)


def _read_csv(path: Path) -> tuple[list[str], list[list[object]]]:
    """Header and rows of a CSV with the stdlib reader (pandas would cost 0.25 s to import)."""
    text = read_text(path)
    try:
        records = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as error:
        raise DataFormatError(path, None, f"expected CSV ({error})") from None
    records = [r for r in records if any(field.strip() for field in r)]
    if not records:
        raise DataFormatError(path, None, "the file is empty")
    header, rows = records[0], records[1:]
    for number, row in enumerate(rows, start=2):
        if len(row) != len(header):
            raise DataFormatError(
                path, f"row {number}", f"expected {len(header)} fields like the header, found {len(row)}"
            )
    return header, cast(list[list[object]], rows)  # str cells are objects; no copy of 50k rows


def _read_xlsx(path: Path) -> tuple[list[str], list[list[object]]]:
    import pandas as pd
    from python_calamine import CalamineError

    if path.stat().st_size == 0:
        raise DataFormatError(path, None, "the file is empty")
    try:
        # calamine reads the released MentalAlign workbooks 3-5x faster than openpyxl, every cell
        # the same (tests/data/loaders/test_mentalalign_xlsx.py compares every cell both ways).
        frame = pd.read_excel(path, dtype=str, engine="calamine")
    except (CalamineError, zipfile.BadZipFile, ValueError, KeyError, OSError) as error:
        raise DataFormatError(path, None, f"expected an .xlsx workbook ({error})") from None
    except SyntaxError as error:  # xml.etree's ParseError: the package is fine, its sheet XML is not
        raise DataFormatError(path, None, f"expected an .xlsx workbook, its sheet XML is corrupt ({error})") from None
    return [str(c) for c in frame.columns], frame.to_numpy(dtype=object).tolist()


def _read_table(path: Path) -> tuple[list[str], list[list[object]]]:
    check_input_file(path)  # a folder, FIFO or symlink loop is named as such, not "not found"
    suffix = path.suffix.lower()
    if suffix in (".xlsx", ".xlsm"):
        return _read_xlsx(path)
    if suffix in (".csv", ".txt"):
        return _read_csv(path)
    raise UserError(f"{path}: unsupported file type {suffix or '(none)'!r}; expected .xlsx or .csv")


def _normalise_id(value: object) -> str:
    text = "" if value is None or (isinstance(value, float) and np.isnan(value)) else str(value).strip()
    integral = _INTEGRAL_FLOAT.match(text)
    return integral.group(1) if integral else text


def read_ratings(path: str | Path, prefix: str, score_range: tuple[float, float] = DEFAULT_SCORE_RANGE) -> RatingTable:
    """Read a human (``prefix="human_response"``) or judge rating file, xlsx or csv.

    Scores outside ``score_range`` (inclusive) count as unparsed.
    """
    path = Path(path)
    header, records = _read_table(path)
    names = [c.strip() for c in header]
    found = ", ".join(names) if names else "none"
    if ID_COLUMN not in names:
        raise DataFormatError(path, "row 1", f"missing column {ID_COLUMN!r} (found: {found})")
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise DataFormatError(path, "row 1", f"column {name!r} appears twice")
        seen.add(name)
    start = f"{prefix}_"
    keys = tuple(name[len(start) :] for name in names if name.startswith(start) and len(name) > len(start))
    if not keys:
        raise DataFormatError(path, "row 1", f"expected columns named {prefix}_<model> (found: {found})")
    if not records:
        raise DataFormatError(path, None, "no data rows after the header")

    id_index = names.index(ID_COLUMN)
    conv_ids = [_normalise_id(record[id_index]) for record in records]
    first_row: dict[str, int] = {}
    for index, conv_id in enumerate(conv_ids):
        row = index + 2
        if not conv_id:
            raise DataFormatError(
                path, f"row {row}, column {ID_COLUMN!r}", "expected a conversation id, found an empty cell"
            )
        if conv_id in first_row:
            raise DataFormatError(
                path, f"row {row}", f"duplicate {ID_COLUMN} {conv_id!r} (first at row {first_row[conv_id]})"
            )
        first_row[conv_id] = row

    # Human cells repeat a lot (a few hundred distinct strings per column): parse each once.
    cache: dict[object, tuple[float, ...]] = {}
    columns = []
    human = prefix == HUMAN_PREFIX and not is_released_human_file(path)
    for key in keys:
        parsed = []
        index = names.index(f"{start}{key}")
        for row, cell in enumerate((record[index] for record in records), start=2):
            value = cache.get(cell)
            if value is None:
                if human:
                    check_human_cell(cell, path, f"row {row}, column {names[index]!r}")
                value = cache[cell] = parse_cell(cell)
            parsed.append(value)
        columns.append(parsed)
    values = np.array(columns, dtype=float).transpose(1, 0, 2)
    status = cell_status(values, score_range)
    scores = np.where(status == OK, values, np.nan)
    return RatingTable(str(path), prefix, tuple(conv_ids), tuple(range(2, len(conv_ids) + 2)), keys, scores, status)


@dataclass(frozen=True)
class Coverage:
    """What a judge's file shares with the human file: only shared cells are compared.

    A judge may rate responses no human rated (e.g. your own model's, fresh from
    ``trustmh generate`` and ``trustmh judge``) and humans may have rated conversations or
    responses the judge did not: those are left out, and counted here.
    """

    keys: tuple[str, ...]  # response models both rated
    judge_only_keys: tuple[str, ...]  # rated by the judge only: not aligned
    human_only_keys: tuple[str, ...]  # rated by the humans only: missing for this judge
    conversations: int  # rated by both
    judge_only_conversations: int
    human_only_conversations: int

    @property
    def complete(self) -> bool:
        return not (self.judge_only_keys or self.human_only_keys) and not (
            self.judge_only_conversations or self.human_only_conversations
        )

    def to_json(self) -> dict[str, object]:
        return {
            "keys": list(self.keys),
            "judge_only_keys": list(self.judge_only_keys),
            "human_only_keys": list(self.human_only_keys),
            "conversations": self.conversations,
            "judge_only_conversations": self.judge_only_conversations,
            "human_only_conversations": self.human_only_conversations,
        }

    def note(self, judge: str, human_path: str) -> str | None:
        """One line on what was left out, or ``None`` when the files match."""
        parts = []
        if self.judge_only_keys:
            parts.append(f"responses no human rated left out ({', '.join(self.judge_only_keys)})")
        if self.human_only_keys:
            parts.append(f"not rated by this judge: {', '.join(self.human_only_keys)}")
        if self.human_only_conversations:
            parts.append(f"{self.human_only_conversations} conversations of {human_path} not rated by this judge")
        if self.judge_only_conversations:
            parts.append(f"{self.judge_only_conversations} conversations not in {human_path} left out")
        if not parts:
            return None
        return f"judge {judge}: compared on {len(self.keys)} response models x {self.conversations} conversations; " + (
            "; ".join(parts)
        )


def coverage(reference: RatingTable, other: RatingTable) -> Coverage:
    shared_ids = set(reference.conv_ids) & set(other.conv_ids)
    return Coverage(
        keys=tuple(k for k in reference.keys if k in other.keys),
        judge_only_keys=tuple(k for k in other.keys if k not in reference.keys),
        human_only_keys=tuple(k for k in reference.keys if k not in other.keys),
        conversations=len(shared_ids),
        judge_only_conversations=len(set(other.conv_ids) - shared_ids),
        human_only_conversations=len(set(reference.conv_ids) - shared_ids),
    )


def match_to(reference: RatingTable, other: RatingTable) -> RatingTable:
    """``other`` laid out like ``reference`` (its conversations and keys, in its order).

    Cells ``other`` does not rate (a conversation or response model it lacks) are
    ``MISSING``; what only ``other`` rates is dropped (see :class:`Coverage`). Sharing no
    response model or no conversation is a one-line error saying what is needed.
    """
    found = coverage(reference, other)
    if not found.keys:
        raise DataFormatError(
            other.path,
            "row 1",
            f"rates responses {', '.join(other.keys)} but {reference.path} has human ratings of "
            f"{', '.join(reference.keys)}: none in common. align needs human ratings of the same responses: "
            f"a {reference.column(other.keys[0])} column (per ConvID, the seven scores as JSON) for {other.column(other.keys[0])}",
        )
    if not found.conversations:
        raise DataFormatError(
            other.path,
            f"row {other.rows[0]}",
            f"{ID_COLUMN} {other.conv_ids[0]!r} is not in {reference.path}, nor is any other: the two files rate no "
            "conversation in common (ConvIDs must match; trustmh judge numbers rows 1, 2, ... when its input has no ConvID)",
        )
    position = {conv_id: i for i, conv_id in enumerate(other.conv_ids)}
    rows = len(reference.conv_ids)
    scores = np.full((rows, len(reference.keys), len(ATTRIBUTES)), np.nan)
    status = np.full(scores.shape, MISSING, dtype=np.int8)
    conv = np.array([i for i, c in enumerate(reference.conv_ids) if c in position], dtype=int)
    source = np.array([position[reference.conv_ids[i]] for i in conv], dtype=int)
    for k, key in enumerate(reference.keys):
        if key in other.keys:
            j = other.keys.index(key)
            scores[conv, k] = other.scores[source, j]
            status[conv, k] = other.status[source, j]
    row_of = {c: other.rows[i] for c, i in position.items()}
    return replace(
        other,
        conv_ids=reference.conv_ids,
        rows=tuple(row_of.get(c, 0) for c in reference.conv_ids),
        keys=reference.keys,
        scores=scores,
        status=status,
    )


def count_rows(data_dir: str | Path | None) -> int:
    """Number of rated conversations in the released human file."""
    from trustmh.data.registry import resolve_file

    path = resolve_file("mentalalign70k", HUMAN_FILE, data_dir, allow_download=False)
    return len(read_ratings(path, HUMAN_PREFIX).conv_ids)
