"""The fast detector pass: conversation batches -> worker processes -> Parquet parts, resumable.

``trustmh audit EXPORT --detectors-only`` (and every Parquet export) runs here, not through inspect:

* the export is read as a stream of batches (:mod:`.warehouse`) in this process, and each batch
  goes to one of ``workers`` processes (default: one per core) that run :func:`.batch.detect_all`;
  at most :data:`IN_FLIGHT_PER_WORKER` batches per worker are in flight, so memory does not grow
  with the number of conversations;
* each finished batch is written as one part of two Parquet datasets in the output folder,
  ``conversations/part-NNNNNN.parquet`` (one row per conversation) and
  ``flagged-turns/part-NNNNNN.parquet``, each written to a temporary name and renamed (atomic):
  the flagged-turn part first, the conversation part last, so a conversation part on disk means
  its batch is complete;
* rerunning the same command resumes: the ``content_hash`` of every conversation already in a
  conversation part is skipped (an orphan flagged-turn part, left by a kill between the two
  renames, is removed first), so after a SIGKILL nothing is lost or counted twice. A rerun with a
  different export, ``--columns``, ``--where`` or detector version refuses rather than mixing.

Workers start from a fork server that has imported the detectors and loaded the language model
once (:mod:`.worker_process`), so the workers share those pages; the reading process imports neither.
"""

from __future__ import annotations

import json
import multiprocessing
import os
from collections import deque
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from trustmh.audit.memory import use_returning_memory_pool
from trustmh.audit.schema import DETECTIONS, DETECTOR_VERSION, FLAGGED_TURNS, hash_keys
from trustmh.core.errors import UserError
from trustmh.core.locks import exclusive

CONVERSATIONS_DIR = "conversations"
TURNS_DIR = "flagged-turns"
MANIFEST = "detect-pass.json"
IN_FLIGHT_PER_WORKER = 2


use_returning_memory_pool()  # before the export is read (the CLI reads its first batch before run_detector_pass)


@dataclass
class PassResult:
    folder: Path
    conversations: int = 0  # detected in this run
    skipped: int = 0  # already in the output (resumed)
    parts: int = 0


def _init_worker(done: np.ndarray) -> None:
    from trustmh.audit.pass_worker import init_worker  # in the workers only: the reading process stays light

    init_worker(done)


def _detect_new(batch: pa.RecordBatch) -> tuple[pa.RecordBatch, pa.RecordBatch, int]:
    from trustmh.audit.pass_worker import detect_new

    return detect_new(batch)


def _write_atomic(table: pa.Table, path: Path) -> None:
    temporary = path.with_name(path.name + ".tmp")
    pq.write_table(table, temporary, compression="zstd")
    os.replace(temporary, path)


class PartWriter:
    """Numbered Parquet parts of both datasets in ``folder``; knows what earlier runs finished."""

    def __init__(self, folder: Path) -> None:
        self.conversations, self.turns = folder / CONVERSATIONS_DIR, folder / TURNS_DIR
        for directory in (self.conversations, self.turns):
            directory.mkdir(parents=True, exist_ok=True)
            for leftover in directory.glob("*.tmp"):
                leftover.unlink()
        finished = {p.name for p in self.conversations.glob("part-*.parquet")}
        for orphan in self.turns.glob("part-*.parquet"):
            if orphan.name not in finished:  # killed between the two renames: its batch is redone
                orphan.unlink()
        self.next = 1 + max((int(name[5:11]) for name in finished), default=0)

    def finished_keys(self) -> np.ndarray:
        parts = sorted(self.conversations.glob("part-*.parquet"))
        keys = [hash_keys(pq.read_table(p, columns=["content_hash"]).column("content_hash")) for p in parts]
        return np.sort(np.concatenate(keys)) if keys else np.zeros(0, dtype=np.uint64)

    def write(self, conversations: pa.RecordBatch, turns: pa.RecordBatch) -> None:
        if conversations.num_rows == 0:
            return
        name = f"part-{self.next:06d}.parquet"
        _write_atomic(pa.Table.from_batches([turns], schema=FLAGGED_TURNS), self.turns / name)
        _write_atomic(pa.Table.from_batches([conversations], schema=DETECTIONS), self.conversations / name)
        self.next += 1


def _check_manifest(folder: Path, source: dict[str, str | None]) -> None:
    manifest = {"detector_version": DETECTOR_VERSION, **source}
    path = folder / MANIFEST
    if path.exists():
        try:
            earlier = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            raise UserError(f"{path}: unreadable; use a new --log-dir or delete the folder") from None
        changed = [k for k in manifest if earlier.get(k) != manifest[k]]
        if changed and any(folder.joinpath(CONVERSATIONS_DIR).glob("part-*.parquet")):
            raise UserError(
                f"{folder} holds a detector pass of another run ({', '.join(changed)} differ); "
                "use a new --log-dir to keep both"
            )
    path.write_text(json.dumps(manifest, indent=1), encoding="utf-8")


def _context() -> multiprocessing.context.BaseContext:
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["trustmh.audit.worker_process"])
    return context


def run_detector_pass(
    batches: Iterator[pa.RecordBatch], folder: Path, source: dict[str, str | None], workers: int | None = None
) -> PassResult:
    """Detect every conversation of ``batches`` into ``folder`` (resuming what is there)."""
    folder.mkdir(parents=True, exist_ok=True)
    result = PassResult(folder)
    with exclusive(folder / ".trustmh.lock", f"output folder {folder}"):
        _check_manifest(folder, source)
        writer = PartWriter(folder)
        done = writer.finished_keys()
        count = workers or os.cpu_count() or 1
        if count == 1:
            _init_worker(done)
            for batch in batches:
                _record(result, writer, *_detect_new(batch))
            return result
        with ProcessPoolExecutor(count, mp_context=_context(), initializer=_init_worker, initargs=(done,)) as pool:
            pending: deque[Future] = deque()
            try:
                for batch in batches:
                    pending.append(pool.submit(_detect_new, batch))
                    while len(pending) >= count * IN_FLIGHT_PER_WORKER:
                        _drain(result, writer, pending)
                while pending:
                    _drain(result, writer, pending)
            except BaseException:
                pool.shutdown(wait=False, cancel_futures=True)
                raise
    return result


def _drain(result: PassResult, writer: PartWriter, pending: deque[Future]) -> None:
    """Write every batch that has finished (waiting for at least one)."""
    finished, _ = wait(list(pending), return_when=FIRST_COMPLETED)
    for future in [f for f in pending if f in finished]:
        pending.remove(future)
        _record(result, writer, *future.result())


def _record(
    result: PassResult, writer: PartWriter, conversations: pa.RecordBatch, turns: pa.RecordBatch, skipped: int
) -> None:
    writer.write(conversations, turns)
    result.conversations += conversations.num_rows
    result.skipped += skipped
    result.parts += 1 if conversations.num_rows else 0
