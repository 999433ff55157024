"""One writer at a time: an advisory lock on a log folder or a bulk cache.

Two runs writing the same log folder (or the same bulk cache) would pay every call twice
and remove each other's logs. The second run refuses at once, naming the folder and the
process holding it. The lock is ``fcntl.flock`` on a small file: the kernel releases it
when the holder exits, even on SIGKILL, so a crashed run never leaves a stale lock.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from trustmh.core.errors import UserError


@contextlib.contextmanager
def exclusive(lock_path: Path, what: str) -> Iterator[None]:
    """Hold ``lock_path`` exclusively while the block runs; refuse (exit 2) if another process does."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no advisory locks, run unguarded
        yield
        return
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.pread(descriptor, 32, 0).decode("ascii", "replace").strip() or "unknown"
            raise UserError(
                f"{what} is in use by another trustmh run (pid {holder}); wait for it to finish "
                "or choose another folder"
            ) from None
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, str(os.getpid()).encode(), 0)
        yield
    finally:
        os.close(descriptor)  # releases the lock
