"""How many threads the embedded model's llama.cpp uses, and how they wait for each other.

llama-cpp-python's CPU backend is built with OpenMP (libgomp): its threads meet at a barrier
after every node of the compute graph, hundreds of times per generated token. libgomp lets a
thread that reaches a barrier first *spin* (``GOMP_SPINCOUNT``, 300,000 checks by default)
before it sleeps. On an idle machine its partner arrives within microseconds and spinning is
what makes the barrier cheap; on a busy one the OS has often handed the partner's core to
another process, and the waiting thread burns its own core until the partner is scheduled
again — which the spinning itself delays. Issue 26 measured a default run beside one other
CPU-heavy process taking over ten times its idle wall time and three times its CPU.

So, unless the user set them (``OMP_WAIT_POLICY``, ``GOMP_SPINCOUNT`` win), before llama.cpp
is first loaded :func:`prepare_openmp` caps the spin at :data:`SPIN_COUNT` checks: meant to be
long enough for a partner that is running, short enough that a descheduled one costs little
CPU (``benchmarks/llama_threads_bench.py`` compares it with the default, other caps and no
spin; ``benchmarks/contention_bench.py`` runs the default run beside a busy process). libgomp
reads these variables once, when it is loaded, so every import of ``llama_cpp`` in trustmh goes through :func:`import_llama_cpp`.

Threads: at most one per core this process may run on (``os.sched_getaffinity``, which
honours ``taskset`` and container CPU sets; ``os.cpu_count`` does not), and no more than the
cores other processes left free (:class:`ThreadChooser`): before each call, the cores' busy
time since the last look (``/proc/stat``) minus this process's own CPU time says how many
cores other processes kept busy. Two threads sharing a core with another process wait at every
barrier for the one that is not running; one thread on the core left free never waits. Thread
counts do not change a token of a greedy answer (tests/models/test_threads.py).
``$TRUSTMH_LLAMA_THREADS`` fixes the count for prompt processing and generation alike.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from trustmh.core.errors import UserError

# Cores' busy time is read at most this often (seconds): /proc/stat counts in 10 ms ticks.
MIN_INTERVAL = 0.5
# Other processes' busy cores are rounded up from this fraction of a core: a core more than
# half used by others is not free (hysteresis against the noise of short-lived processes).
BUSY_CORE_FRACTION = 0.5
# libgomp's spin before a waiting thread sleeps (its default: 300,000; 1,000 when it sees more
# threads than cores). Only a saturated machine was available to measure it on: to confirm idle
# with benchmarks/llama_threads_bench.py.
SPIN_COUNT = 10_000


def prepare_openmp() -> None:
    """Set libgomp's wait behaviour for llama.cpp's threads, unless the user already chose it.
    Takes effect only before libgomp is loaded (the first ``import llama_cpp``)."""
    if "OMP_WAIT_POLICY" not in os.environ:
        os.environ.setdefault("GOMP_SPINCOUNT", str(SPIN_COUNT))


def import_llama_cpp() -> ModuleType:
    """``llama_cpp``, loaded after :func:`prepare_openmp` (every trustmh import of it goes through here)."""
    prepare_openmp()
    import llama_cpp

    return llama_cpp


def usable_cpus() -> set[int]:
    """CPUs this process may run on (its CPU affinity; all of them where that is unknown)."""
    try:
        return set(os.sched_getaffinity(0)) or {0}
    except (AttributeError, OSError):  # not on Linux
        return set(range(os.cpu_count() or 1))


def usable_cores() -> int:
    return len(usable_cpus())


@dataclass(frozen=True)
class ThreadCounts:
    generation: int  # llama.cpp's n_threads: one token per sequence per step
    prompt: int  # n_threads_batch: prompt processing, many tokens per step


def fixed_threads() -> int | None:
    """``$TRUSTMH_LLAMA_THREADS`` (at least 1), or None when unset."""
    value = os.environ.get("TRUSTMH_LLAMA_THREADS", "").strip()
    if not value:
        return None
    try:
        return max(1, int(value))
    except ValueError:
        raise UserError(f"TRUSTMH_LLAMA_THREADS must be a whole number, not {value!r}") from None


def llama_threads() -> ThreadCounts:
    """Threads to load llama.cpp with: ``$TRUSTMH_LLAMA_THREADS`` for both, or one per usable core."""
    threads = fixed_threads() or usable_cores()
    return ThreadCounts(threads, threads)


def busy_ticks(cpus: set[int], stat: Path = Path("/proc/stat")) -> tuple[int, int] | None:
    """Busy and total clock ticks of ``cpus`` since boot (None where ``/proc/stat`` is not readable).
    Time stolen by a hypervisor counts as busy: those cycles were not ours to use either."""
    try:
        lines = stat.read_text().splitlines()
    except OSError:
        return None
    busy = total = 0
    for line in lines:
        name, *fields = line.split()
        if not name.startswith("cpu") or name == "cpu" or int(name[3:]) not in cpus:
            continue
        # user nice system idle iowait irq softirq steal (guest time is already in user)
        ticks = [int(field) for field in fields[:8]]
        total += sum(ticks)
        busy += sum(ticks) - ticks[3] - ticks[4]
    return (busy, total) if total else None


class ThreadChooser:
    """Before each call: how many threads llama.cpp should use now (see module docstring)."""

    def __init__(
        self,
        ticks: Callable[[], tuple[int, int] | None] | None = None,
        own_cpu: Callable[[], float] = time.process_time,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        cpus = usable_cpus()
        self.cores = len(cpus)
        self.fixed = fixed_threads()
        self._ticks = ticks or (lambda: busy_ticks(cpus))
        self._own_cpu, self._clock = own_cpu, clock
        self._tick_seconds = 1 / os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 0.01
        self._last: tuple[float, float, tuple[int, int]] | None = None
        self.threads = self.fixed or self.cores

    def choose(self) -> int:
        """Threads for the next call: the fixed count, or the cores other processes left free."""
        if self.fixed is not None or self.cores == 1:
            return self.threads
        now, own, ticks = self._clock(), self._own_cpu(), self._ticks()
        if ticks is None:
            return self.threads
        if self._last is None:
            self._last = (now, own, ticks)
            return self.threads
        then, own_then, ticks_then = self._last
        elapsed = now - then
        if elapsed < MIN_INTERVAL:
            return self.threads
        self._last = (now, own, ticks)
        busy_cores = (ticks[0] - ticks_then[0]) * self._tick_seconds / elapsed
        others = max(0.0, busy_cores - (own - own_then) / elapsed)
        taken = math.floor(others + 1 - BUSY_CORE_FRACTION)
        self.threads = max(1, min(self.cores, self.cores - taken))
        return self.threads
