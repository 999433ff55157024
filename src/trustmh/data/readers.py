"""Strict readers for the file formats datasets come in.

They turn every decoding or structural problem into a one-line
:class:`~trustmh.core.errors.DataFormatError` naming the file and the line or field.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from trustmh.core.errors import DataFormatError, UserError
from trustmh.core.paths import check_input_file, os_error_words

# A single field above this size is almost certainly a corrupted file (a missing quote in a
# CSV swallows the rest of the file into one cell); real items are a few KB at most.
MAX_FIELD_CHARS = 200_000


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
        return json.loads(text)
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
            obj = json.loads(line)
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


def read_csv_rows(path: Path, required: Sequence[str]) -> list[dict[str, str]]:
    """Parse a CSV with a header row; column names are whitespace-stripped.

    Each returned row carries ``_line``: the physical line its record starts on.
    """
    text = read_text(path)
    reader = csv.DictReader(io.StringIO(text, newline=""))
    header = [name.strip() for name in (reader.fieldnames or [])]
    missing = [name for name in required if name not in header]
    if missing:
        raise DataFormatError(
            path,
            "line 1",
            f"missing column {missing[0]!r} (expected columns: {', '.join(required)}; found: {', '.join(header)})",
        )
    reader.fieldnames = header
    rows: list[dict[str, str]] = []
    # csv's line_num is where a record *ends*; a quoted cell with newlines spans several
    # lines, so the record starts on the line after the previous record ended.
    previous_end = reader.line_num
    try:
        for row in reader:
            line, previous_end = previous_end + 1, reader.line_num
            if None in row:
                raise DataFormatError(
                    path, f"line {line}", f"row has more fields than the {len(header)} columns of the header"
                )
            for key in required:
                value = row.get(key)
                if value is None:
                    raise DataFormatError(path, f"line {line}", f"row ends before column {key!r}")
                if len(value) > MAX_FIELD_CHARS:
                    raise DataFormatError(
                        path,
                        f"line {line}, column {key!r}",
                        f"field longer than {MAX_FIELD_CHARS} characters (unbalanced quote?)",
                    )
            row_out = {k: v for k, v in row.items() if k is not None}
            row_out["_line"] = str(line)
            rows.append(row_out)
    except csv.Error as error:
        raise DataFormatError(path, f"line {reader.line_num}", f"expected CSV ({error})") from None
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
