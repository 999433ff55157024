"""Warehouse exports: Parquet (long and nested layouts, hive partitions), --columns, --where, errors."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.audit.audit_helpers import EXAMPLE_CSV, EXAMPLE_JSONL
from tests.audit.warehouse_helpers import COLUMNS, example_rows, write_hive_export
from trustmh.audit.readers import read_conversations
from trustmh.audit.warehouse import conversation_batches, parse_columns
from trustmh.core.errors import DataFormatError, UserError


def conversations(path: Path, columns: str | None = None, where: str | None = None, rows: int = 1000) -> dict:
    found = {}
    for batch in conversation_batches(path, columns, where, batch_rows=rows):
        assert batch.num_rows <= rows
        for cid, messages in zip(batch.column(0).to_pylist(), batch.column(1).to_pylist(), strict=True):
            assert cid not in found
            found[cid] = [(m["role"], m["content"]) for m in messages]
    return found


def test_hive_export_gives_the_jsonl_conversations(tmp_path: Path) -> None:
    expected = {f"{c.id}-0": c.messages for c in read_conversations(EXAMPLE_JSONL)}
    # row groups of 7 messages and batches of 3 conversations: conversations cross both boundaries
    assert conversations(write_hive_export(tmp_path, 1), COLUMNS, rows=3) == expected


def test_where_prunes_partitions(tmp_path: Path) -> None:
    export = write_hive_export(tmp_path, copies=3)
    found = conversations(export, COLUMNS, "date >= '2026-11-02'")
    assert {cid.rsplit("-", 1)[1] for cid in found} == {"1", "2"}
    assert len(found) == 2 * len(list(read_conversations(EXAMPLE_JSONL)))


def test_nested_layout(tmp_path: Path) -> None:
    rows = [
        {"cid": c.id, "messages": [{"role": r, "content": t} for r, t in c.messages]}
        for c in read_conversations(EXAMPLE_JSONL)
    ]
    path = tmp_path / "nested.parquet"
    pq.write_table(pa.Table.from_pylist(rows), path)
    assert conversations(path, "conversation_id=cid") == {c.id: c.messages for c in read_conversations(EXAMPLE_JSONL)}


def test_jsonl_and_csv_go_through_their_readers() -> None:
    assert conversations(EXAMPLE_JSONL) == conversations(EXAMPLE_CSV)


def test_turns_out_of_order_are_one_line(tmp_path: Path) -> None:
    rows = [{k: v for k, v in r.items() if k != "date"} for r in example_rows()]
    rows[0]["seq"], rows[1]["seq"] = 5, 1  # c-001's first two messages swapped
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "x.parquet")
    with pytest.raises(DataFormatError, match=r"conversation 'c-001-0', column 'turn': expected turns in increasing"):
        conversations(tmp_path / "x.parquet", COLUMNS)


@pytest.mark.parametrize(
    ("columns", "message"),
    [
        ("conversation_id=nope", r"expected the columns conversation_id \(column 'nope'\)"),
        ("speaker", "expected NAME=COLUMN"),
        ("colour=text", "expected NAME=COLUMN with NAME one of conversation_id, role, content, turn, messages"),
    ],
)
def test_bad_columns(tmp_path: Path, columns: str, message: str) -> None:
    export = write_hive_export(tmp_path)
    with pytest.raises(UserError, match=message):
        conversations(export, columns)


def test_where_on_a_text_export_is_refused() -> None:
    with pytest.raises(UserError, match="apply to Parquet exports"):
        conversations(EXAMPLE_JSONL, where="date >= '2026-11-01'")


def test_not_parquet(tmp_path: Path) -> None:
    (tmp_path / "x.parquet").write_text("not parquet", encoding="utf-8")
    with pytest.raises(DataFormatError, match="expected Parquet files"):
        conversations(tmp_path / "x.parquet")


def test_parse_columns_defaults() -> None:
    assert parse_columns("content=text")["content"] == "text"
    assert parse_columns(None)["conversation_id"] == "conversation_id"
