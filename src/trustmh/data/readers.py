"""Strict readers for the file formats datasets come in.

They turn every decoding or structural problem into a one-line
:class:`~trustmh.core.errors.DataFormatError` naming the file and the line or field.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from trustmh.core.errors import DataFormatError, UserError
from trustmh.core.paths import check_input_file, os_error_words

# A single field above this size is almost certainly a corrupted file (a missing quote in a
# CSV swallows the rest of the file into one cell); real items are a few KB at most.
MAX_FIELD_CHARS = 200_000
# The csv module refuses a cell above 131,072 characters with its own error, below our limit: a
# 150,000-character message was "not valid CSV". Raised (process-wide, never lowered) so a cell
# up to MAX_FIELD_CHARS is read and a longer one meets our own check.
if csv.field_size_limit() <= MAX_FIELD_CHARS:
    csv.field_size_limit(MAX_FIELD_CHARS + 1)
# Control characters (NUL, line breaks, escapes) in an id: it names a sample in logs, reports,
# CSVs and inspect's sample lookups, where a NUL failed as an internal error.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
TOO_DEEP = "nested too deeply to read (over about 1,000 levels)"


def parse_json(text: str) -> Any:
    """``json.loads``, with nesting too deep for Python's parser (a ``RecursionError``, an
    internal error before) raised as the ``json.JSONDecodeError`` of any other malformed JSON."""
    try:
        return json.loads(text)
    except RecursionError:
        raise json.JSONDecodeError(TOO_DEEP, text[:100], 0) from None


def checked_id(value: str, path: Path, where: str, what: str = "id") -> str:
    """``value`` stripped, refused (one line naming file and field) when empty or when it holds a
    control character."""
    text = value.strip()
    if not text:
        raise DataFormatError(path, where, f"expected a non-empty {what}")
    found = _CONTROL.search(text)
    if found:
        raise DataFormatError(
            path, where, f"expected a {what} without control characters, found {found.group(0)!r} in {text!r}"
        )
    return text


def read_text(path: Path, encoding: str = "utf-8") -> str:
    """Read a whole text file, naming the line of the first undecodable byte."""
    check_input_file(Path(path))  # a FIFO would block forever, a folder or loop is not "not found"
    try:
        raw = Path(path).read_bytes()
    except OSError as error:
        raise UserError(f"{path}: cannot read ({os_error_words(error)})") from None
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise DataFormatError(
            path, f"line {line}", f"expected {encoding} text, found undecodable byte 0x{raw[error.start]:02x}"
        ) from None
    if not text.strip():
        raise DataFormatError(path, None, "the file is empty")
    return text.lstrip("\ufeff")


def check_line_lengths(path: Path, lines: Sequence[str]) -> None:
    """A line longer than :data:`MAX_FIELD_CHARS` is a corrupted file, not an item."""
    for number, line in enumerate(lines, start=1):
        if len(line) > MAX_FIELD_CHARS:
            raise DataFormatError(
                path,
                f"line {number}",
                f"expected a line of at most {MAX_FIELD_CHARS} characters, found {len(line)} (missing line breaks?)",
            )


def read_lines(path: Path, keep_empty: bool = False) -> list[str]:
    """Lines of a text file without line endings; trailing blank lines dropped."""
    lines = read_text(path).splitlines()
    check_line_lengths(path, lines)
    while lines and not lines[-1].strip():
        lines.pop()
    return lines if keep_empty else [line for line in lines if line.strip()]


def read_json(path: Path) -> Any:
    """Parse a JSON document, naming the line of a syntax error (e.g. a truncated file)."""
    text = read_text(path)
    try:
        return parse_json(text)
    except json.JSONDecodeError as error:
        raise DataFormatError(path, f"line {error.lineno}", f"expected valid JSON ({error.msg})") from None


def _no_alias_loader() -> type:
    import yaml

    class NoAliasLoader(yaml.SafeLoader):
        """A safe loader that refuses aliases: an alias repeats its anchor's node, and nested
        aliases multiply (the "billion laughs"): a few hundred bytes of YAML that every later
        walk over the document (validation, templating, each request's body) expands to billions
        of nodes. No config trustmh reads needs one."""

        def compose_node(self, parent: Any, index: Any) -> Any:
            if self.check_event(yaml.AliasEvent):
                event = self.peek_event()
                raise yaml.composer.ComposerError(
                    None, None, "aliases (*name) are not accepted; write the value out", event.start_mark
                )
            return super().compose_node(parent, index)

    return NoAliasLoader


def read_yaml_mapping(path: Path, expected: str) -> dict[str, Any]:
    """A YAML (or JSON) file holding one mapping; aliases are refused (see :func:`_no_alias_loader`).
    ``expected`` says what the mapping should hold, for the error when it is something else."""
    import yaml

    try:
        raw = yaml.load(read_text(path), Loader=_no_alias_loader())  # a SafeLoader subclass: plain data only
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else None
        problem = getattr(error, "problem", None) or "syntax error"
        raise DataFormatError(path, where, f"invalid YAML or JSON ({problem})") from None
    if not isinstance(raw, dict):
        raise DataFormatError(path, None, expected)
    return raw


def read_jsonl(path: Path, required: Sequence[str] = ()) -> list[dict[str, Any]]:
    """Parse JSON Lines: one object per non-blank line, each with the ``required`` keys."""
    records: list[dict[str, Any]] = []
    for number, line in enumerate(read_text(path).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = parse_json(line)
        except json.JSONDecodeError as error:
            raise DataFormatError(path, f"line {number}", f"expected one JSON object per line ({error.msg})") from None
        if not isinstance(obj, dict):
            raise DataFormatError(path, f"line {number}", "expected a JSON object")
        missing = [key for key in required if key not in obj]
        if missing:
            raise DataFormatError(
                path, f"line {number}", f"missing field {missing[0]!r} (expected fields: {', '.join(required)})"
            )
        obj["_line"] = number
        records.append(obj)
    return records


def _csv_problem(error: csv.Error) -> str:
    if "unexpected end of data" in str(error):
        return "a quoted cell is never closed (an unterminated quote runs to the end of the file)"
    return f"expected valid CSV ({error})"


def csv_rows(
    path: Path, handle: TextIO, check_header: Callable[[list[str]], None] | None = None
) -> Iterator[tuple[int, dict[str, str]]]:
    """The rows of a CSV with a header row, as ``(the line the row starts on, {column: cell})``.

    Column names are whitespace-stripped (and a BOM dropped); ``check_header`` may refuse the
    header. Strict: a column named twice in the header, a row with more or fewer fields than the
    header, a quote never closed, malformed quoting, a cell over :data:`MAX_FIELD_CHARS` are each
    a one-line :class:`DataFormatError` naming the file, the line and the column. Blank lines are
    skipped. Reads ``handle`` as a stream (the caller opens it with ``newline=""``).
    """
    reader = csv.reader(handle, strict=True)
    try:
        first = next(reader, None)
    except csv.Error as error:
        raise DataFormatError(path, "line 1", f"expected a CSV header ({_csv_problem(error)})") from None
    header = [name.strip().lstrip("\ufeff").strip() for name in first or []]
    named = [name for name in header if name]
    twice = next((name for index, name in enumerate(named) if name in named[:index]), None)
    if twice is not None:
        raise DataFormatError(path, "line 1", f"column {twice!r} appears twice in the header")
    if check_header is not None:
        check_header(header)
    # csv's line_num is where a record *ends*; a quoted cell with newlines spans several
    # lines, so a record starts on the line after the previous record ended.
    previous_end = reader.line_num
    try:
        for cells in reader:
            line, previous_end = previous_end + 1, reader.line_num
            if not cells:
                continue
            if len(cells) != len(header):
                more = len(cells) > len(header)
                raise DataFormatError(
                    path,
                    f"line {line}",
                    f"row has {'more' if more else 'fewer'} fields than the {len(header)} columns of the header "
                    f"(found {len(cells)}{'' if more else '; a short row'})",
                )
            for name, cell in zip(header, cells, strict=True):
                if len(cell) > MAX_FIELD_CHARS:
                    raise DataFormatError(
                        path,
                        f"line {line}, column {name!r}",
                        f"expected at most {MAX_FIELD_CHARS} characters, found {len(cell)} (an unbalanced quote?)",
                    )
            yield line, dict(zip(header, cells, strict=True))
    except csv.Error as error:
        raise DataFormatError(path, f"line {previous_end + 1}", _csv_problem(error)) from None


def read_csv_rows(path: Path, required: Sequence[str]) -> list[dict[str, str]]:
    """Parse a CSV with a header row (:func:`csv_rows`); ``required`` columns must be there.

    Each returned row carries ``_line``: the physical line its record starts on.
    """

    def check(header: list[str]) -> None:
        missing = [name for name in required if name not in header]
        if missing:
            raise DataFormatError(
                path,
                "line 1",
                f"missing column {missing[0]!r} (expected columns: {', '.join(required)}; found: {', '.join(header)})",
            )

    text = read_text(path)
    rows = [row | {"_line": str(line)} for line, row in csv_rows(path, io.StringIO(text, newline=""), check)]
    if not rows:
        raise DataFormatError(path, None, "no data rows after the header")
    return rows


def require_unique(path: Path, ids: Iterable[tuple[str, str]]) -> None:
    """Raise on the first repeated id; ``ids`` yields ``(id, where)`` pairs."""
    seen: dict[str, str] = {}
    for item_id, where in ids:
        if item_id in seen:
            raise DataFormatError(path, where, f"duplicate id {item_id!r} (first at {seen[item_id]})")
        seen[item_id] = where
