"""Python's cyclic garbage collector, set for one command-line run over inspect.

A ``trustmh`` process imports inspect, openai and anthropic: millions of objects that live as
long as the process. CPython (3.11) runs a young collection every 700 new container objects and
walks the whole heap every 100 young ones, so a run spent about 1 s of CPU at start-up and a
share of every sample re-walking the same imported modules
(``benchmarks/harness_cpu_bench.py``). Two settings remove that work without changing what
is collected:

* :func:`tune_collector` (the CLI's entry point): young collections every
  :data:`YOUNG_THRESHOLD` new objects instead of 700; cyclic garbage is still collected, only
  in larger steps;
* :func:`freeze_loaded_objects` (just before a run's eval starts): one collection, then every
  object still alive (modules, tasks, datasets) moves to the permanent generation that later
  collections skip. Freed by reference counting as usual; only cycles among them are never
  looked at again, which suits objects that live until the process exits.

Both apply to the ``trustmh`` command's own process only: code that imports trustmh as a
library (and the test suite) keeps Python's defaults.
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 50_000

_tuned = False


def tune_collector() -> None:
    """Young collections every :data:`YOUNG_THRESHOLD` objects (never fewer than now); this
    process's runs then freeze what they loaded (:func:`freeze_loaded_objects`)."""
    global _tuned
    young, middle, old = gc.get_threshold()
    gc.set_threshold(max(young, YOUNG_THRESHOLD), middle, old)
    _tuned = True


def freeze_loaded_objects() -> None:
    """Collect once, then keep every live object out of later collections (``gc.freeze``);
    a no-op unless :func:`tune_collector` ran in this process."""
    if not _tuned:
        return
    gc.collect()
    gc.freeze()
