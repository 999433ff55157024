"""Submitted provider batches, kept in the cache database so a killed run resumes by polling.

``batches(batch_id, model, status, submitted_at)`` and ``batch_items(key, batch_id)`` — the
key being the request's cache key, which is also its ``custom_id`` in the batch. A batch is
recorded (and committed) as soon as the provider accepts it; while it is ``pending`` a rerun
that needs one of its keys polls it instead of submitting the request again.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path

from trustmh.bulk.cache import create_private
from trustmh.errors import UserError

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS batches (batch_id TEXT PRIMARY KEY, model TEXT NOT NULL, "
    "status TEXT NOT NULL, submitted_at REAL NOT NULL)",
    "CREATE TABLE IF NOT EXISTS batch_items (key TEXT NOT NULL, batch_id TEXT NOT NULL, PRIMARY KEY (key, batch_id))",
)


class BatchStore:
    def __init__(self, path: Path) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            create_private(path)
            self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=30)
            self._db.execute("PRAGMA journal_mode=WAL")
            for statement in _SCHEMA:
                self._db.execute(statement)
        except (sqlite3.DatabaseError, OSError) as error:
            raise UserError(f"{path}: not a usable cache database ({error})") from None

    def add(self, batch_id: str, model: str, keys: Sequence[str]) -> None:
        self._db.execute("BEGIN")
        self._db.execute("INSERT OR REPLACE INTO batches VALUES (?, ?, 'pending', ?)", (batch_id, model, time.time()))
        self._db.executemany("INSERT OR IGNORE INTO batch_items VALUES (?, ?)", [(key, batch_id) for key in keys])
        self._db.execute("COMMIT")

    def pending_batch(self, key: str) -> str | None:
        row = self._db.execute(
            "SELECT b.batch_id FROM batch_items i JOIN batches b ON b.batch_id = i.batch_id "
            "WHERE i.key = ? AND b.status = 'pending' LIMIT 1",
            (key,),
        ).fetchone()
        return None if row is None else str(row[0])

    def keys(self, batch_id: str) -> list[str]:
        return [str(k) for (k,) in self._db.execute("SELECT key FROM batch_items WHERE batch_id = ?", (batch_id,))]

    def finish(self, batch_id: str, status: str) -> None:
        self._db.execute("UPDATE batches SET status = ? WHERE batch_id = ?", (status, batch_id))

    def counts(self) -> dict[str, int]:
        return {str(s): int(n) for s, n in self._db.execute("SELECT status, COUNT(*) FROM batches GROUP BY status")}

    def close(self) -> None:
        self._db.close()
