"""Resumable SQLite cache of completions, keyed by :meth:`ChatRequest.cache_key`.

WAL mode lets a reader (a second run, a test) look while a run writes. Commits are batched
per event-loop tick: every completion arriving in the same tick shares one transaction,
flushed by a callback scheduled with ``call_soon``. So a SIGKILL loses at most the results
of the tick being processed, while 64 concurrent streams cost one commit per tick instead
of one per row. ``synchronous=NORMAL`` in WAL mode survives a killed process (data reaches
the OS on commit); only an OS crash can lose the last commits, which merely re-pays them.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Iterable
from pathlib import Path

from trustmh.bulk.request import Completion
from trustmh.core.errors import UserError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS completions (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    text TEXT NOT NULL,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    finish_reason TEXT NOT NULL
)
"""
_LOOKUP_CHUNK = 500  # stays below SQLite's limit on bound parameters


def create_private(path: Path) -> None:
    """Make ``path`` readable by its owner only, before SQLite opens it.

    Prompts and replies are private: the file (and SQLite's -wal/-shm files, which take its
    permissions) is 0600. The file is opened only when it does not exist yet: closing any
    descriptor of a file drops every POSIX lock this process holds on it, so opening and
    closing it while another connection of ours (the batch store) has it open would release
    that connection's locks and let another process reset the WAL under it.
    """
    try:
        os.close(os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        os.chmod(path, 0o600)


class CompletionCache:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.failure: UserError | None = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            create_private(path)
            self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(_SCHEMA)
        except (sqlite3.DatabaseError, OSError) as error:
            raise UserError(f"{path}: not a usable cache database ({error})") from None
        self._pending: list[tuple[str, str, str, int, int, str]] = []
        self._flush_scheduled = False
        self.commits = 0

    def lookup(self, keys: Iterable[str]) -> dict[str, Completion]:
        """The cached completions among ``keys`` (one query per chunk, not per key)."""
        found: dict[str, Completion] = {}
        key_list = list(dict.fromkeys(keys))
        for start in range(0, len(key_list), _LOOKUP_CHUNK):
            chunk = key_list[start : start + _LOOKUP_CHUNK]
            marks = ",".join("?" * len(chunk))
            rows = self._db.execute(
                f"SELECT key, text, input_tokens, output_tokens, finish_reason FROM completions WHERE key IN ({marks})",
                chunk,
            )
            for key, text, input_tokens, output_tokens, finish_reason in rows:
                found[key] = Completion(text, input_tokens, output_tokens, finish_reason)
        return found

    def put(self, key: str, model: str, completion: Completion) -> None:
        """Queue a row; it is committed at the end of the current event-loop tick."""
        if self.failure is not None:
            raise self.failure
        self._pending.append(
            (key, model, completion.text, completion.input_tokens, completion.output_tokens, completion.finish_reason)
        )
        if self._flush_scheduled:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.flush()
            return
        self._flush_scheduled = True
        loop.call_soon(self._flush_in_callback)

    def _flush_in_callback(self) -> None:
        # An exception in a loop callback would only be logged by asyncio (one traceback per
        # tick) and the run would go on caching nothing; keep it and fail the next put instead.
        try:
            self.flush()
        except UserError as error:
            self.failure = error

    def flush(self) -> None:
        self._flush_scheduled = False
        if self.failure is not None:
            raise self.failure
        if not self._pending:
            return
        rows, self._pending = self._pending, []
        try:
            self._db.execute("BEGIN")  # one transaction for the whole batch
            try:
                self._db.executemany("INSERT OR REPLACE INTO completions VALUES (?, ?, ?, ?, ?, ?)", rows)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        except (sqlite3.Error, OSError) as error:
            self.failure = UserError(
                f"{self.path}: cannot write the cache ({error}); free disk space or choose another --cache, "
                "then rerun: finished calls already cached are kept"
            )
            raise self.failure from None
        self.commits += 1

    def count(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM completions").fetchone()[0])

    def close(self) -> None:
        try:
            self.flush()
        finally:
            self._db.close()
