"""Ratings in the long format ``sample_id, field, rater, score``: human files, and the judge's.

One row is one rater's rating of one field of one sample, or, with the optional ``turn`` column
(a 1-based turn number as in the transcript), of one turn of a conversation sample; an empty
``turn`` means the sample as a whole. ``score`` is a number (a scale
point, or 0/1) or a label (``refused``, ``partial``, ...). A CSV needs those four columns in
its header (more columns, e.g. a note, are allowed and ignored); a JSONL file one object per
line with those four keys (``score`` a number or a string). A CSV cell written ``'=x`` by one of
our writers (neutralised against formulas) is read as ``=x``. A sample a rater did not rate
simply has no row; an empty score is an error, never read as 0. A field declared with a scale
(``--scale harmfulness=1-5``) takes numbers on it only: a label or a number off the scale is
an error naming the file, line and field, as are a non-finite number and a field mixing
numbers and labels.

An optional ``weight`` column is the sample's sampling weight, 1 / its inclusion probability in a
labelling set drawn with unequal probabilities (``trustmh labels export --stratify``): a number of
at least 1, the same on every row of a sample; empty or absent means an equal-probability sample.
The PPI correction then weighs each label by it (:func:`trustmh.stats.ppi.ppi_mean_weighted`).
A CSV cell that a spreadsheet would run as a formula is written with a leading ``'``
(:mod:`trustmh.core.spreadsheet`) and read back without it.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from trustmh.core.errors import DataFormatError, UserError
from trustmh.core.spreadsheet import neutralise_csv_cell, restore_csv_cell
from trustmh.data.readers import checked_id, read_csv_rows, read_jsonl

COLUMNS = ("sample_id", "field", "rater", "score")  # required; ``turn`` and ``weight`` are optional
WRITTEN_COLUMNS = (*COLUMNS, "turn", "weight")
Value = float | str


@dataclass(frozen=True)
class Rating:
    sample_id: str
    field: str
    rater: str
    value: Value
    where: str  # "file:line N", for messages
    turn: int | None = None  # a conversation's turn (1-based); None: the sample as a whole
    weight: float | None = None  # 1 / the sample's inclusion probability; None: an equal-probability sample

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
RUBRIC = "the judge's rubric"  # a Scale's source when the log recorded it with the verdicts


@dataclass(frozen=True)
class Scale:
    """The values a field takes: numbers from ``low`` to ``high``, or one of ``choices``; ``source``
    says who declared it (``--scale``, or the judge's rubric as the log records it)."""

    low: float = 0.0
    high: float = 0.0
    choices: tuple[str, ...] = ()
    source: str = "--scale"

    @classmethod
    def recorded(cls, values: object) -> Scale | None:
        """The scale a log records for a rubric field (:meth:`JudgeField.values`); None if unreadable."""
        if not isinstance(values, dict):
            return None
        if isinstance(values.get("choices"), list) and values["choices"]:
            return cls(choices=tuple(str(c).strip().lower() for c in values["choices"]), source=RUBRIC)
        low, high = values.get("low"), values.get("high")
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (low, high)):
            return cls(float(low), float(high), source=RUBRIC)  # type: ignore[arg-type]
        return None

    def problem(self, field: str, value: Value) -> str | None:
        """What is wrong with ``value`` on this scale, or None."""
        found = repr(value) if isinstance(value, str) else f"{value:g}"
        if self.choices:
            if isinstance(value, str) and value in self.choices:
                return None
            return f"field {field!r} is declared one of {', '.join(self.choices)} ({self.source}), found {found}"
        if isinstance(value, str) or not self.low <= value <= self.high:
            return f"field {field!r} is declared {self.low:g}-{self.high:g} ({self.source}), found {found}"
        return None


def parse_scales(specs: Sequence[str]) -> dict[str, Scale]:
    """``--scale FIELD=LOW-HIGH`` (also ``LOW..HIGH``), e.g. ``harmfulness=1-5``: each field's declared scale."""
    scales: dict[str, Scale] = {}
    for spec in specs:
        field, sep, bounds = spec.partition("=")
        match = _SCALE.match(bounds)
        if not sep or not field.strip() or match is None or float(match[1]) >= float(match[2]):
            raise UserError(f"--scale {spec!r}: expected FIELD=LOW-HIGH with LOW < HIGH, e.g. harmfulness=1-5")
        scales[field.strip()] = Scale(float(match[1]), float(match[2]))
    return scales


def _check_on_scale(path: Path, where: str, field: str, value: Value, scale: Scale) -> None:
    if (problem := scale.problem(field, value)) is not None:
        raise DataFormatError(path, f"{where}, column 'score'", problem)


def check_on_judge_scales(
    path: Path, ratings: Iterable[Rating], scales: Mapping[str, Scale], numeric: Iterable[str]
) -> None:
    """Human labels the judge's own fields cannot take: off the scale the rubric declares
    (``scales``, recorded in the log), or a text label on a field the judge rated with numbers
    (``numeric``). Either would move an agreement and a corrected mean (a label turns the field
    nominal; 7 on a 0-2 scale pulls the mean), so each is a one-line error naming file, line and field."""
    numeric = set(numeric)
    for rating in ratings:
        where = rating.where.removeprefix(f"{path}:")
        if rating.field in scales:
            _check_on_scale(path, where, rating.field, rating.value, scales[rating.field])
        elif rating.field in numeric and isinstance(rating.value, str):
            raise DataFormatError(
                path,
                f"{where}, column 'score'",
                f"field {rating.field!r} is rated with numbers by the judge, found the label {rating.value!r}",
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


def parse_weight(raw: object) -> float | None:
    """A sampling weight (1 / inclusion probability): a finite number of at least 1; empty is ``None``."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    try:
        number = float(raw.strip()) if isinstance(raw, str) else float(raw)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        number = float("nan")
    if isinstance(raw, bool) or not math.isfinite(number) or number < 1:
        raise ValueError(
            f"expected a sampling weight (1 / inclusion probability, at least 1) or nothing, found {raw!r}"
        )
    return number


def _text(raw: object) -> str:
    return restore_csv_cell(raw.strip()) if isinstance(raw, str) else "" if raw is None else str(raw)


def _rows(path: Path) -> Iterable[tuple[str, dict[str, object]]]:
    if path.suffix.lower() == ".jsonl":
        for record in read_jsonl(path, COLUMNS):
            yield f"line {record['_line']}", record
    else:
        for row in read_csv_rows(path, COLUMNS):
            # cells our CSV writers neutralised against formulas are restored once, in _text
            yield f"line {row['_line']}", dict(row)


def read_ratings(path: str | Path, scales: Mapping[str, Scale] | None = None) -> list[Rating]:
    """Every rating of a long-format file; a bad row is a one-line error naming file, line and column.
    ``scales``: declared scales by field (:func:`parse_scales`); a value off its field's scale is one."""
    path = Path(path)
    ratings: list[Rating] = []
    seen: dict[tuple[str, str, str, int | None], str] = {}
    weights: dict[str, tuple[float | None, str]] = {}
    for where, row in _rows(path):
        keys = {}
        for column in ("sample_id", "field", "rater"):
            keys[column] = checked_id(_text(row.get(column)), path, f"{where}, column {column!r}", column)
        try:
            raw_score = row.get("score")
            value = parse_value(_text(raw_score) if isinstance(raw_score, str) else raw_score)
        except ValueError as error:
            raise DataFormatError(path, f"{where}, column 'score'", str(error)) from None
        if scales and keys["field"] in scales:
            _check_on_scale(path, where, keys["field"], value, scales[keys["field"]])
        try:
            turn = parse_turn(row.get("turn"))
        except ValueError as error:
            raise DataFormatError(path, f"{where}, column 'turn'", str(error)) from None
        try:
            weight = parse_weight(row.get("weight"))
        except ValueError as error:
            raise DataFormatError(path, f"{where}, column 'weight'", str(error)) from None
        _check_same_weight(path, where, keys["sample_id"], weight, weights)
        key = (keys["sample_id"], keys["field"], keys["rater"], turn)
        if key in seen:
            at = "" if turn is None else f" at turn {turn}"
            raise DataFormatError(
                path,
                where,
                f"rater {key[2]!r} rated field {key[1]!r} of sample {key[0]!r}{at} twice (first at {seen[key]})",
            )
        seen[key] = where
        ratings.append(Rating(*key[:3], value, f"{path}:{where}", turn, weight))
    _check_one_kind_per_field(path, ratings)
    return ratings


def _check_same_weight(
    path: Path, where: str, sample_id: str, weight: float | None, seen: dict[str, tuple[float | None, str]]
) -> None:
    """A sample has one inclusion probability: every row of it carries the same weight (or none)."""
    first = seen.setdefault(sample_id, (weight, where))
    if first[0] != weight:
        shown = "none" if first[0] is None else f"{first[0]:g}"
        raise DataFormatError(
            path,
            f"{where}, column 'weight'",
            f"sample {sample_id!r} has weight {shown} at {first[1]}; expected the same weight on every row of a sample",
        )


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.17g}"  # exact: a weight read back is the weight written
    return str(neutralise_csv_cell(str(value)))


def ratings_csv(ratings: Iterable[Rating]) -> str:
    """The long-format CSV text of ``ratings`` (columns :data:`WRITTEN_COLUMNS`), read back by :func:`read_ratings`."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(WRITTEN_COLUMNS)
    for r in ratings:
        writer.writerow([_cell(x) for x in (r.sample_id, r.field, r.rater, r.value, r.turn, r.weight)])
    return buffer.getvalue()


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
