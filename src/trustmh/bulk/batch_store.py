"""Submitted provider batches, kept in the cache database so a killed run resumes by polling.

``batches(batch_id, model, status, submitted_at)`` and ``batch_items(key, batch_id)`` — the
key being the request's cache key, which is also its ``custom_id`` in the batch.

A submission is recorded twice. Before anything is sent, an *intent* row (status
``submitting``, id ``intent-…``) lists the batch's keys; once the provider answers with its
batch id, :meth:`BatchStore.bind` moves the keys onto that id (status ``pending``) in one
transaction. A run killed between the two finds the intent and asks the provider whether the
batch exists (:meth:`trustmh.bulk.batch_backend.BatchApi.find`) instead of submitting again.
While a batch is ``pending`` a rerun that needs one of its keys polls it.

Every request of a batch run asks :meth:`BatchStore.open_batch` first; a query per request
cost ~40 µs (0.4 s for 10,000). The keys that can be in an open batch are the keys of batches
open when the run first asks, plus those this process adds; that set is read once, and a
key outside it is answered without a query. One run at a time holds the cache
(``trustmh.core.locks``) and the set is read on the first ask, inside the run, so no other
process adds keys behind it.
"""

from __future__ import annotations

import sqlite3
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from trustmh.bulk.cache import create_private
from trustmh.core.errors import UserError

SUBMITTING = "submitting"
PENDING = "pending"

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
        self._maybe_open: set[str] | None = None  # read on the first open_batch (see the module docstring)

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self._db.execute("BEGIN")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def add_intent(self, model: str, keys: Sequence[str]) -> str:
        """Record a batch about to be submitted; returns the intent's id."""
        intent = f"intent-{uuid.uuid4().hex}"
        with self._transaction() as db:
            db.execute("INSERT INTO batches VALUES (?, ?, ?, ?)", (intent, model, SUBMITTING, time.time()))
            db.executemany("INSERT OR IGNORE INTO batch_items VALUES (?, ?)", [(key, intent) for key in keys])
        if self._maybe_open is not None:
            self._maybe_open.update(keys)
        return intent

    def bind(self, intent: str, batch_id: str) -> None:
        """The provider accepted the intent's batch as ``batch_id``: its keys now wait on that."""
        with self._transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO batches SELECT ?, model, ?, submitted_at FROM batches WHERE batch_id = ?",
                (batch_id, PENDING, intent),
            )
            db.execute("UPDATE OR IGNORE batch_items SET batch_id = ? WHERE batch_id = ?", (batch_id, intent))
            db.execute("DELETE FROM batch_items WHERE batch_id = ?", (intent,))
            db.execute("DELETE FROM batches WHERE batch_id = ?", (intent,))

    def drop(self, intent: str) -> None:
        """The intent's batch was never accepted: forget it (its requests go in a new batch)."""
        with self._transaction() as db:
            db.execute("DELETE FROM batch_items WHERE batch_id = ?", (intent,))
            db.execute("DELETE FROM batches WHERE batch_id = ?", (intent,))

    def open_batch(self, key: str) -> tuple[str, str] | None:
        """``(batch_id, status)`` of a pending batch or unresolved intent holding ``key``."""
        if self._maybe_open is None:
            rows = self._db.execute(
                "SELECT i.key FROM batch_items i JOIN batches b ON b.batch_id = i.batch_id WHERE b.status IN (?, ?)",
                (PENDING, SUBMITTING),
            )
            self._maybe_open = {str(k) for (k,) in rows}
        if key not in self._maybe_open:
            return None
        row = self._db.execute(
            "SELECT b.batch_id, b.status FROM batch_items i JOIN batches b ON b.batch_id = i.batch_id "
            "WHERE i.key = ? AND b.status IN (?, ?) ORDER BY b.status = ? DESC LIMIT 1",
            (key, PENDING, SUBMITTING, PENDING),
        ).fetchone()
        return None if row is None else (str(row[0]), str(row[1]))

    def intents(self, provider: str) -> list[tuple[str, float, int]]:
        """Unbound intents of ``provider``'s models, oldest first: ``(intent, submitted_at, requests)``."""
        rows = self._db.execute(
            "SELECT b.batch_id, b.submitted_at, COUNT(i.key) FROM batches b JOIN batch_items i ON i.batch_id = b.batch_id "
            "WHERE b.status = ? AND b.model LIKE ? GROUP BY b.batch_id ORDER BY b.submitted_at, b.batch_id",
            (SUBMITTING, f"{provider}/%"),
        )
        return [(str(intent), float(at), int(count)) for intent, at, count in rows]

    def submitted_at(self, batch_id: str) -> float:
        row = self._db.execute("SELECT submitted_at FROM batches WHERE batch_id = ?", (batch_id,)).fetchone()
        return float(row[0]) if row else time.time()

    def known(self, batch_id: str) -> bool:
        return self._db.execute("SELECT 1 FROM batches WHERE batch_id = ?", (batch_id,)).fetchone() is not None

    def keys(self, batch_id: str) -> list[str]:
        return [str(k) for (k,) in self._db.execute("SELECT key FROM batch_items WHERE batch_id = ?", (batch_id,))]

    def finish(self, batch_id: str, status: str) -> None:
        self._db.execute("UPDATE batches SET status = ? WHERE batch_id = ?", (status, batch_id))

    def counts(self) -> dict[str, int]:
        return {str(s): int(n) for s, n in self._db.execute("SELECT status, COUNT(*) FROM batches GROUP BY status")}

    def close(self) -> None:
        self._db.close()
