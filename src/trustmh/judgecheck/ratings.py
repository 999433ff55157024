"""Ratings in the long format ``sample_id, field, rater, score``: human files, and the judge's.

One row is one rater's rating of one field of one sample, or, with the optional ``turn`` column
(a 1-based turn number as in the transcript), of one turn of a conversation sample; an empty
``turn`` means the sample as a whole. ``score`` is a number (a scale
point, or 0/1) or a label (``refused``, ``partial``, ...). A CSV needs those four columns in
its header (more columns, e.g. a note, are allowed and ignored); a JSONL file one object per
line with those four keys (``score`` a number or a string). A sample a rater did not rate
simply has no row; an empty score is an error, never read as 0. A field declared with a scale
(``--scale harmfulness=1-5``) takes numbers on it only: a label or a number off the scale is
an error naming the file, line and field, as are a non-finite number and a field mixing
numbers and labels.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from trustmh.core.errors import DataFormatError, UserError
from trustmh.data.readers import checked_id, read_csv_rows, read_jsonl

COLUMNS = ("sample_id", "field", "rater", "score")  # required; ``turn`` is optional
Value = float | str


@dataclass(frozen=True)
class Rating:
    sample_id: str
    field: str
    rater: str
    value: Value
    where: str  # "file:line N", for messages
    turn: int | None = None  # a conversation's turn (1-based); None: the sample as a whole

    @property
    def item(self) -> tuple[str, int | None]:
        """What was rated: the sample, or one turn of it (the unit of the agreement statistics)."""
        return (self.sample_id, self.turn)


def parse_value(raw: object) -> Value:
    """A number stays a number (``"4"`` -> 4.0); any other text is a label (lower-cased, trimmed)."""
    if isinstance(raw, bool) or raw is None:
        raise ValueError("expected a number or a label")
    if isinstance(raw, (int, float)):
        if not math.isfinite(raw):
            raise ValueError("expected a finite number")
        return float(raw)
    if not isinstance(raw, str) or not raw.strip():
        raise ValueError("expected a number or a label, found an empty score (leave the row out for 'not rated')")
    text = raw.strip()
    try:
        number = float(text)
    except ValueError:
        return text.lower()
    if not math.isfinite(number):
        raise ValueError(f"expected a finite number, found {text!r}")
    return number


_SCALE = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(?:-|\.\.|:)\s*(-?\d+(?:\.\d+)?)\s*$")


def parse_scales(specs: Sequence[str]) -> dict[str, tuple[float, float]]:
    """``--scale FIELD=LOW-HIGH`` (also ``LOW..HIGH``), e.g. ``harmfulness=1-5``: each field's declared scale."""
    scales: dict[str, tuple[float, float]] = {}
    for spec in specs:
        field, sep, bounds = spec.partition("=")
        match = _SCALE.match(bounds)
        if not sep or not field.strip() or match is None or float(match[1]) >= float(match[2]):
            raise UserError(f"--scale {spec!r}: expected FIELD=LOW-HIGH with LOW < HIGH, e.g. harmfulness=1-5")
        scales[field.strip()] = (float(match[1]), float(match[2]))
    return scales


def _check_on_scale(path: Path, where: str, field: str, value: Value, scale: tuple[float, float]) -> None:
    low, high = scale
    if isinstance(value, str) or not low <= value <= high:
        found = repr(value) if isinstance(value, str) else f"{value:g}"
        raise DataFormatError(
            path, f"{where}, column 'score'", f"field {field!r} is declared {low:g}-{high:g} (--scale), found {found}"
        )


def parse_turn(raw: object) -> int | None:
    """A turn number (``"5"``, ``5``, ``5.0``) as an int; empty or missing is ``None`` (the whole sample)."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    if isinstance(raw, bool):
        raise ValueError("expected a whole turn number (1, 2, ...) or nothing")
    try:
        number = float(raw.strip()) if isinstance(raw, str) else float(raw)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ValueError(f"expected a whole turn number (1, 2, ...) or nothing, found {raw!r}") from None
    if not math.isfinite(number) or number != int(number) or number < 1:
        raise ValueError(f"expected a whole turn number (1, 2, ...) or nothing, found {raw!r}")
    return int(number)


def _text(raw: object) -> str:
    return raw.strip() if isinstance(raw, str) else "" if raw is None else str(raw)


def _rows(path: Path) -> Iterable[tuple[str, dict[str, object]]]:
    if path.suffix.lower() == ".jsonl":
        for record in read_jsonl(path, COLUMNS):
            yield f"line {record['_line']}", record
    else:
        for row in read_csv_rows(path, COLUMNS):
            yield f"line {row['_line']}", dict(row)


def read_ratings(path: str | Path, scales: Mapping[str, tuple[float, float]] | None = None) -> list[Rating]:
    """Every rating of a long-format file; a bad row is a one-line error naming file, line and column.
    ``scales``: declared scales by field (:func:`parse_scales`); a value off its field's scale is one."""
    path = Path(path)
    ratings: list[Rating] = []
    seen: dict[tuple[str, str, str, int | None], str] = {}
    for where, row in _rows(path):
        keys = {}
        for column in ("sample_id", "field", "rater"):
            keys[column] = checked_id(_text(row.get(column)), path, f"{where}, column {column!r}", column)
        try:
            value = parse_value(row.get("score"))
        except ValueError as error:
            raise DataFormatError(path, f"{where}, column 'score'", str(error)) from None
        if scales and keys["field"] in scales:
            _check_on_scale(path, where, keys["field"], value, scales[keys["field"]])
        try:
            turn = parse_turn(row.get("turn"))
        except ValueError as error:
            raise DataFormatError(path, f"{where}, column 'turn'", str(error)) from None
        key = (keys["sample_id"], keys["field"], keys["rater"], turn)
        if key in seen:
            at = "" if turn is None else f" at turn {turn}"
            raise DataFormatError(
                path,
                where,
                f"rater {key[2]!r} rated field {key[1]!r} of sample {key[0]!r}{at} twice (first at {seen[key]})",
            )
        seen[key] = where
        ratings.append(Rating(*key[:3], value, f"{path}:{where}", turn))
    _check_one_kind_per_field(path, ratings)
    return ratings


def _check_one_kind_per_field(path: Path, ratings: list[Rating]) -> None:
    """A field is rated with numbers or with labels, never both (issue 25).

    Mixed, the numbers were silently read as labels ("4" a category of its own) and the
    field's agreement computed on nominal codes; a stray label in a scale is a typo to fix."""
    first: dict[str, dict[bool, Rating]] = {}
    for rating in ratings:
        kinds = first.setdefault(rating.field, {})
        is_label = isinstance(rating.value, str)
        kinds.setdefault(is_label, rating)
        if len(kinds) == 2:
            number, label = kinds[False], kinds[True]
            odd = rating  # the row that made the field mixed
            other = label if odd is number else number
            where = odd.where.removeprefix(f"{path}:")
            raise DataFormatError(
                path,
                f"{where}, column 'score'",
                f"field {rating.field!r} mixes numbers and labels ({odd.value!r} here, "
                f"{other.value!r} at {other.where.removeprefix(f'{path}:')}); expected one kind per field",
            )
