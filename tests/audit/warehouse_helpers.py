"""Parquet exports for the warehouse tests, made from the shipped example export."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from tests.audit.audit_helpers import EXAMPLE_JSONL
from trustmh.audit.readers import read_conversations

COLUMNS = "conversation_id=session,role=speaker,content=text,turn=seq"


def example_rows(copies: int = 1) -> list[dict[str, object]]:
    """One row per message (long layout, renamed columns), ``copies`` times with distinct ids."""
    rows: list[dict[str, object]] = []
    for copy in range(copies):
        for conversation in read_conversations(EXAMPLE_JSONL):
            for seq, (role, text) in enumerate(conversation.messages):
                day = f"2026-11-0{1 + copy % 3}"
                rows.append(
                    {"session": f"{conversation.id}-{copy}", "seq": seq, "speaker": role, "text": text, "date": day}
                )
    return rows


def write_hive_export(folder: Path, copies: int = 1, row_group_size: int = 7) -> Path:
    """``folder/date=2026-11-0N/part-0.parquet``: conversations split over row groups on purpose."""
    rows = example_rows(copies)
    for day in sorted({str(r["date"]) for r in rows}):
        part = [{k: v for k, v in r.items() if k != "date"} for r in rows if r["date"] == day]
        (folder / f"date={day}").mkdir(parents=True, exist_ok=True)
        pq.write_table(
            pa.Table.from_pylist(part), folder / f"date={day}" / "part-0.parquet", row_group_size=row_group_size
        )
    return folder
