"""The bulk cache: private, one writer at a time, and a failed write is an error (issue 12, items 4, 8, 9)."""

from __future__ import annotations

import asyncio
import logging
import stat
from pathlib import Path

import pytest

from trustmh.bulk.cache import CompletionCache
from trustmh.bulk.request import Completion
from trustmh.core.errors import UserError
from trustmh.core.locks import exclusive


def test_cache_files_are_readable_by_their_owner_only(tmp_path: Path) -> None:
    cache = CompletionCache(tmp_path / "c.sqlite")
    cache.put("k", "openai/m", Completion("a private reply", 1, 1, "stop"))
    cache.flush()
    files = [p for p in tmp_path.iterdir() if p.name.startswith("c.sqlite")]
    assert files and all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in files), files
    cache.close()


def test_a_failed_cache_write_is_one_error_not_callback_tracebacks(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cache = CompletionCache(tmp_path / "c.sqlite")
    cache._db.execute("PRAGMA max_page_count = 8")  # a full disk, as SQLite reports it

    async def fill() -> None:
        for index in range(400):
            cache.put(f"k{index}", "openai/m", Completion("x" * 2000, 1, 1, "stop"))
            await asyncio.sleep(0)

    with caplog.at_level(logging.ERROR, logger="asyncio"), pytest.raises(UserError, match="cannot write the cache"):
        asyncio.run(fill())
    assert not [r for r in caplog.records if "Exception in callback" in r.getMessage()]
    with pytest.raises(UserError, match="cannot write the cache"):
        cache.close()


def test_a_second_writer_is_refused_with_the_holders_pid(tmp_path: Path) -> None:
    import os

    lock = tmp_path / "c.sqlite.lock"
    with exclusive(lock, "cache c.sqlite"):
        with pytest.raises(UserError, match=rf"cache c.sqlite is in use by another trustmh run \(pid {os.getpid()}\)"):
            with exclusive(lock, "cache c.sqlite"):
                pass
    with exclusive(lock, "cache c.sqlite"):  # released when the holder is done
        pass


@pytest.mark.parametrize("writer", ["table", "text"])
def test_a_failed_write_is_one_error_and_leaves_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, writer: str
) -> None:
    import errno

    from trustmh.bulk import tables
    from trustmh.core import files

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    if writer == "table":
        monkeypatch.setattr(tables, "_write_csv", full)
        with pytest.raises(UserError, match=r"out.csv: cannot write \(no space left on the device\)"):
            tables.write_table(tmp_path / "out.csv", ["a"], [{"a": "1"}])
    else:
        monkeypatch.setattr(files.os, "replace", full)
        with pytest.raises(UserError, match=r"out.json: cannot write \(no space left on the device\)"):
            files.write_text("{}", tmp_path / "out.json")
    assert list(tmp_path.iterdir()) == []
