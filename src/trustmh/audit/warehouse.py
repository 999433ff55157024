"""Warehouse exports as a stream of conversation batches (:data:`trustmh.audit.batch.CONVERSATIONS`).

Inputs (``docs/audit.md``):

* **Parquet**: a ``.parquet`` file or a folder of them, hive-partitioned or not
  (``date=2026-11-01/part-0.parquet``), read by ``pyarrow.dataset`` with column pushdown (only the
  mapped columns are read) and filter pushdown (``--where``, :mod:`trustmh.audit.where`: whole
  partitions and row groups are skipped). Two layouts:

  - *long*: one row per message, columns ``conversation_id, role, content`` and optionally
    ``turn``; a conversation's rows consecutive and, when ``turn`` is given, in increasing order
    (``ORDER BY conversation_id, turn`` in the export query). A conversation continuing in the next
    file is joined up.
  - *nested*: one row per conversation, ``conversation_id`` and ``messages`` (a list of
    ``{role, content}``).

* **JSONL / CSV**: the formats of :mod:`trustmh.audit.readers`, read by it (same checks).

``--columns conversation_id=session,content=text`` maps our names to the export's.
Memory stays flat: one Arrow batch at a time, plus the one conversation that may continue into
the next batch.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from trustmh.audit.schema import CONVERSATIONS, MESSAGE
from trustmh.audit.where import parse_where
from trustmh.core.errors import DataFormatError, UserError

NAMES = ("conversation_id", "role", "content", "turn", "messages")
TEXT_SUFFIXES = (".jsonl", ".csv")
DEFAULT_BATCH_ROWS = 1_000  # conversations per batch handed to a worker
SCAN_ROWS = 32_768  # message rows decoded at a time


def parse_columns(spec: str | None) -> dict[str, str]:
    """``"conversation_id=session,content=text"`` -> ``{"conversation_id": "session", ...}``."""
    mapping = {name: name for name in NAMES}
    for item in (spec or "").split(","):
        if not item.strip():
            continue
        ours, sep, theirs = (part.strip() for part in item.partition("="))
        if not sep or not theirs or ours not in NAMES:
            raise UserError(
                f"{item.strip()!r}: expected NAME=COLUMN with NAME one of {', '.join(NAMES)}", argument="columns"
            )
        mapping[ours] = theirs
    return mapping


def conversation_batches(
    path: Path, columns: str | None = None, where: str | None = None, batch_rows: int = DEFAULT_BATCH_ROWS
) -> Iterator[pa.RecordBatch]:
    """The export's conversations as :data:`CONVERSATIONS` batches of at most ``batch_rows`` rows."""
    if not path.exists():
        raise UserError(f"{path}: no such file or folder")
    if path.is_dir() or path.suffix.lower() == ".parquet":
        yield from _rebatched(_parquet_batches(path, parse_columns(columns), where), batch_rows)
        return
    if path.suffix.lower() not in TEXT_SUFFIXES:
        raise DataFormatError(path, None, "expected a .parquet file or folder, a .jsonl or a .csv export")
    if where or columns:
        raise UserError(
            f"{path}: --where and --columns apply to Parquet exports (convert the file, or filter it first)"
        )
    from trustmh.audit.readers import read_conversations  # its checks, for the formats it reads

    rows: list[dict[str, Any]] = []
    for conversation in read_conversations(path):
        messages = [{"role": role, "content": text} for role, text in conversation.messages]
        rows.append({"conversation_id": conversation.id, "messages": messages})
        if len(rows) == batch_rows:
            yield pa.RecordBatch.from_pylist(rows, schema=CONVERSATIONS)
            rows = []
    if rows:
        yield pa.RecordBatch.from_pylist(rows, schema=CONVERSATIONS)


def open_dataset(path: Path) -> ds.Dataset:
    try:
        return ds.dataset(path, format="parquet", partitioning="hive", exclude_invalid_files=False)
    except (pa.ArrowInvalid, OSError) as error:
        raise DataFormatError(path, None, f"expected Parquet files ({_arrow_words(error)})") from None


def _arrow_words(error: Exception) -> str:
    return " ".join(str(error).split())[:300]


def _parquet_batches(path: Path, mapping: dict[str, str], where: str | None) -> Iterator[pa.RecordBatch]:
    dataset = open_dataset(path)
    schema = dataset.schema
    nested = mapping["messages"] in schema.names and mapping["role"] not in schema.names
    needed = ("conversation_id", "messages") if nested else ("conversation_id", "role", "content")
    missing = [f"{name} (column {mapping[name]!r})" for name in needed if mapping[name] not in schema.names]
    if missing:
        raise DataFormatError(
            path,
            None,
            f"expected the columns {', '.join(missing)}; it has {', '.join(schema.names)} (map them with --columns)",
        )
    wanted = [mapping[name] for name in needed]
    has_turn = not nested and mapping["turn"] in schema.names
    if has_turn:
        wanted.append(mapping["turn"])
    expression = parse_where(where, schema) if where else None
    carry: pa.Table | None = None
    try:
        for fragment in dataset.get_fragments(filter=expression):
            batches = _fragment_batches(fragment, wanted, expression, schema)
            for raw in batches:
                if nested:
                    yield _nested(raw, mapping, fragment.path)
                    continue
                table = _long_table(raw, mapping, has_turn, fragment.path)
                if carry is not None:
                    table = pa.concat_tables([carry, table])
                complete, carry = _split_last(table)
                if complete is not None:
                    yield _nest(complete, has_turn, fragment.path)
        if carry is not None:
            yield _nest(carry, has_turn, str(path))
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError, OSError) as error:
        raise DataFormatError(path, None, f"cannot read the Parquet export ({_arrow_words(error)})") from None


def _fragment_batches(
    fragment: ds.Fragment, columns: list[str], expression: ds.Expression | None, schema: pa.Schema
) -> Iterator[pa.RecordBatch]:
    """One file's ``columns`` in batches of :data:`SCAN_ROWS` rows, decoded as they are taken.

    The workers are far slower than the reader, so whatever Arrow decodes ahead waits in memory:
    its dataset scanner, with any readahead, ends up holding the whole file (a 50,000-conversation
    file: 150 MB). Unfiltered, the file is read with ``iter_batches`` (Arrow holds ~7 MB); a
    ``--where`` filter needs the scanner, run without readahead, threads or pre-buffering (~57 MB).
    """
    if expression is None and set(columns) <= set(fragment.physical_schema.names):
        parquet = pq.ParquetFile(fragment.path, filesystem=fragment.filesystem)
        return parquet.iter_batches(batch_size=SCAN_ROWS, columns=columns, use_threads=False)
    return fragment.to_batches(
        columns=columns,
        filter=expression,
        schema=schema,
        batch_size=SCAN_ROWS,
        batch_readahead=0,
        fragment_readahead=0,
        use_threads=False,
        fragment_scan_options=ds.ParquetFragmentScanOptions(pre_buffer=False),
    )


def _nested(raw: pa.RecordBatch, mapping: dict[str, str], source: str) -> pa.RecordBatch:
    ids = raw.column(mapping["conversation_id"])
    messages = raw.column(mapping["messages"])
    try:
        messages = messages.cast(pa.list_(MESSAGE))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError):
        raise DataFormatError(
            source, f"column {mapping['messages']!r}", f"expected a list of {{role, content}}, found {messages.type}"
        ) from None
    return pa.RecordBatch.from_arrays([_text(ids, source, mapping["conversation_id"]), messages], schema=CONVERSATIONS)


def _text(column: pa.Array, source: str, name: str) -> pa.Array:
    try:
        return pc.cast(column, pa.string())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        raise DataFormatError(source, f"column {name!r}", f"expected text, found {column.type}") from None


def _long_table(raw: pa.RecordBatch, mapping: dict[str, str], has_turn: bool, source: str) -> pa.Table:
    """The batch as ``conversation_id, role, content[, turn]`` (ids and turns checked here)."""
    ids = _text(raw.column(mapping["conversation_id"]), source, mapping["conversation_id"])
    if ids.null_count or pc.any(pc.equal(pc.utf8_trim_whitespace(ids), "")).as_py():
        raise DataFormatError(source, f"column {mapping['conversation_id']!r}", "expected a non-empty conversation id")
    # roles and message lengths are checked where the messages are read, in the workers
    role = _text(raw.column(mapping["role"]), source, mapping["role"])
    content = pc.fill_null(_text(raw.column(mapping["content"]), source, mapping["content"]), "")
    arrays, names = [ids, role, content], ["conversation_id", "role", "content"]
    if has_turn:
        try:
            arrays.append(pc.cast(raw.column(mapping["turn"]), pa.int64()))
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            raise DataFormatError(source, f"column {mapping['turn']!r}", "expected whole turn numbers") from None
        names.append("turn")
    return pa.Table.from_arrays(arrays, names=names)


def _starts(ids: pa.ChunkedArray) -> np.ndarray:
    """Row indices where a new conversation starts (always 0 first)."""
    if len(ids) == 0:
        return np.zeros(0, dtype=np.int64)
    changed = pc.not_equal(ids.slice(1), ids.slice(0, len(ids) - 1))
    return np.concatenate([[0], np.flatnonzero(changed.to_numpy()) + 1]).astype(np.int64)


def _split_last(table: pa.Table) -> tuple[pa.Table | None, pa.Table | None]:
    """(every conversation but the last, the last one: it may continue in the next batch)."""
    starts = _starts(table.column("conversation_id"))
    if len(starts) == 0:
        return None, None
    last = int(starts[-1])
    return (table.slice(0, last) if last else None), table.slice(last)


def _nest(table: pa.Table, has_turn: bool, source: str) -> pa.RecordBatch:
    """Consecutive message rows -> one row per conversation with its ``messages`` list."""
    table = table.combine_chunks()
    starts = _starts(table.column("conversation_id"))
    ids = table.column("conversation_id").chunk(0) if table.num_rows else pa.array([], pa.string())
    if has_turn and table.num_rows > 1:
        turn = table.column("turn").to_numpy()
        same = np.ones(len(turn) - 1, dtype=bool)
        same[starts[1:] - 1] = False
        backwards = np.flatnonzero(same & (np.diff(turn) <= 0))
        if len(backwards):
            at = int(backwards[0]) + 1
            raise DataFormatError(
                source,
                f"conversation {ids[at].as_py()!r}, column 'turn'",
                f"expected turns in increasing order, found {turn[at]} after {turn[at - 1]}; "
                "export the rows ORDER BY conversation_id, turn",
            )
    offsets = pa.array(np.append(starts, table.num_rows), type=pa.int32())
    structs = pa.StructArray.from_arrays(
        [table.column("role").chunk(0), table.column("content").chunk(0)], fields=list(MESSAGE)
    )
    messages = pa.ListArray.from_arrays(offsets, structs)
    return pa.RecordBatch.from_arrays([ids.take(pa.array(starts)), messages], schema=CONVERSATIONS)


def _rebatched(batches: Iterator[pa.RecordBatch], rows: int) -> Iterator[pa.RecordBatch]:
    """Re-cut a stream of conversation batches into compact batches of ``rows`` conversations.

    Compact: a slice of an Arrow list keeps its whole parent's text, and pickling it to a worker
    would send (and hold) all of it; ``take`` copies just the rows.
    """
    pending: list[pa.RecordBatch] = []
    size = 0
    for batch in batches:
        pending.append(batch)
        size += batch.num_rows
        if size < rows:
            continue
        table = pa.Table.from_batches(pending, schema=CONVERSATIONS)
        start = 0
        while size - start >= rows:
            yield _compact(table, start, rows)
            start += rows
        pending = [_compact(table, start, size - start)] if size > start else []
        size -= start
    if size:
        yield _compact(pa.Table.from_batches(pending, schema=CONVERSATIONS), 0, size)


def _compact(table: pa.Table, start: int, rows: int) -> pa.RecordBatch:
    picked = table.take(pa.array(np.arange(start, start + rows)))
    return picked.combine_chunks().to_batches()[0]
