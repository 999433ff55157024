"""Arrow memory for the detector pass's processes (the reading one and the workers)."""

from __future__ import annotations

import pyarrow as pa


def use_returning_memory_pool() -> None:
    """Arrow memory that goes back to the operating system when freed, so each process stays flat
    over millions of conversations: jemalloc with no decay delay (its default keeps freed pages
    for seconds), else the system allocator (Arrow's default pools keep them)."""
    try:
        pa.jemalloc_set_decay_ms(0)
        pa.set_memory_pool(pa.jemalloc_memory_pool())
    except NotImplementedError:  # a pyarrow built without jemalloc
        pa.set_memory_pool(pa.system_memory_pool())
