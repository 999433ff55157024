"""The worker side of the detector pass (:mod:`.detect_pass`): what each worker process runs.

The fork server imports this module once (through :mod:`.worker_process`): the detectors and the
language model are loaded there, so every worker forked from it shares them instead of loading its
own copy. Freed Arrow memory goes back to the operating system
(:func:`.memory.use_returning_memory_pool`), which keeps each process's memory flat over millions
of conversations.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from trustmh.audit.batch import detect_all
from trustmh.audit.language import load_language_model
from trustmh.audit.memory import use_returning_memory_pool
from trustmh.audit.schema import hash_keys

use_returning_memory_pool()
load_language_model()
_done: np.ndarray = np.zeros(0, dtype=np.uint64)  # sorted 64-bit prefixes of the hashes already written


def init_worker(done: np.ndarray) -> None:
    global _done
    _done = done


def detect_new(batch: pa.RecordBatch) -> tuple[pa.RecordBatch, pa.RecordBatch, int]:
    """Detect ``batch`` and drop the conversations an earlier run already wrote (by content hash)."""
    conversations, turns = detect_all(batch)
    if not len(_done):
        return conversations, turns, 0
    keep = ~np.isin(hash_keys(conversations.column("content_hash")), _done)
    kept = {h for h, k in zip(conversations.column("content_hash").to_pylist(), keep, strict=True) if k}
    turn_keep = pa.array([h in kept for h in turns.column("content_hash").to_pylist()], pa.bool_())
    return conversations.filter(pa.array(keep)), turns.filter(turn_keep), int((~keep).sum())


def loaded_packages() -> set[str]:
    """Top-level packages imported in this worker (a test checks that inspect_ai is not one)."""
    import sys

    return {name.partition(".")[0] for name in sys.modules}
