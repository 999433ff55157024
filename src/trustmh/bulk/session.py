"""Everything a bulk command sets up around its jobs: backends, cache, engine, progress."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import signal
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from trustmh.bulk.backends import EndpointSettings, ModelSpec
from trustmh.bulk.budget import Budget, cap_reached
from trustmh.bulk.cache import CompletionCache
from trustmh.bulk.engine import BulkEngine
from trustmh.bulk.factory import make_backends
from trustmh.bulk.progress import ProgressReporter
from trustmh.bulk.request import openai_endpoint
from trustmh.bulk.retry import RetryPolicy
from trustmh.bulk.run_stats import RunStats
from trustmh.core.endpoints import DEFAULT_BASE_URLS, check_reachable
from trustmh.core.errors import UserError
from trustmh.core.locks import exclusive

Item = TypeVar("Item")
GC_THRESHOLD = 20_000  # new objects between two collections of the youngest generation, during a run
Result = TypeVar("Result")


def default_cache_path() -> Path:
    """One cache shared by all runs, so no call is ever paid twice across outputs."""
    base = os.environ.get("TRUSTMH_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "trustmh")
    return Path(base) / "bulk.sqlite"


@dataclass(frozen=True)
class RunSettings:
    endpoint: EndpointSettings
    cache_path: Path | None  # None: no cache
    retry: RetryPolicy
    show_progress: bool = True
    description: str = "calls"
    budget: Budget | None = None  # --max-cost / --max-tokens-total


@dataclass
class RunReport:
    results: list[Any]
    stats: RunStats
    startup_seconds: float
    run_seconds: float
    backend_notes: dict[str, Any] = field(default_factory=dict)  # batches submitted/resumed, calls per replica


def run_jobs(
    specs: Sequence[ModelSpec],
    settings: RunSettings,
    items: Sequence[Item],
    job: Callable[[BulkEngine, Item], Awaitable[Result]],
) -> RunReport:
    """Run ``job(engine, item)`` for every item; blocks until all are done.

    One run at a time per cache: a second one refuses (it would pay every call again).
    """
    reports: list[RunReport] = []
    interrupted: list[int] = []

    async def run() -> None:
        with stopped_by_sigint(interrupted):
            # The report is handed back outside the task: at exit, Python 3.11's asyncio.run
            # formats repr(task) (signal.getsignal on its SIGINT handler), which would format the
            # whole report, 10,000 results long (~0.1 s).
            reports.append(await _run(specs, settings, items, job))

    with fewer_collections():
        try:
            asyncio.run(run())
        except asyncio.CancelledError:
            if not interrupted:
                raise
    if interrupted:  # even if a call in flight swallowed the cancellation and the run went on
        raise KeyboardInterrupt
    return reports[0]


@contextlib.contextmanager
def stopped_by_sigint(interrupted: list[int]) -> Iterator[None]:
    """Ctrl-C cancels the running task and is remembered in ``interrupted``, so the run ends as
    interrupted (exit 130, nothing written) however the cancellation travels through the HTTP
    stack; asyncio's own handler turns it into KeyboardInterrupt only when the task ends cancelled.
    Outside the main thread (no signal handlers there) nothing changes."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()

    def stop() -> None:
        interrupted.append(signal.SIGINT)
        if task is not None:
            task.cancel()

    try:
        loop.add_signal_handler(signal.SIGINT, stop)
    except (ValueError, RuntimeError, NotImplementedError):  # not the main thread, or no such support
        yield
        return
    try:
        yield
    finally:
        loop.remove_signal_handler(signal.SIGINT)


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """Run the cyclic garbage collector less often while a bulk run lasts.

    A run keeps every call waiting at once (10,000 in a batch run), each a task, a coroutine,
    a future and a request, alive until its answer. With the default threshold (a collection
    per 700 new objects) the collector ran thousands of times over all of them: ~15% of the
    CPU of a 10,000-request batch run (benchmarks/batch_bench.py). Cycles are still
    collected, every 20,000 new objects instead of every 700.
    """
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], GC_THRESHOLD), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def check_endpoints(specs: Sequence[ModelSpec], endpoint: EndpointSettings) -> None:
    """Each remote provider of the run has an endpoint accepting connections."""
    for provider in dict.fromkeys(spec.provider for spec in specs):
        first = next(spec for spec in specs if spec.provider == provider)
        if provider == "openai":
            check_some_replica(endpoint, f"model {first.spec}")
        elif provider == "anthropic":
            url = os.environ.get("ANTHROPIC_BASE_URL") or DEFAULT_BASE_URLS["anthropic"]
            check_reachable(url, f"model {first.spec}")


def check_some_replica(endpoint: EndpointSettings, who: str) -> None:
    """At least one of the endpoint's URLs accepts connections (replicas fail over to each other)."""
    first = endpoint.base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URLS["openai"]
    urls = list(dict.fromkeys([first, *endpoint.replica_urls]))
    problem: UserError | None = None
    for url in urls:
        try:
            check_reachable(url, who)
            return
        except UserError as error:
            problem = problem or error
    assert problem is not None
    raise problem


async def _run(
    specs: Sequence[ModelSpec],
    settings: RunSettings,
    items: Sequence[Item],
    job: Callable[[BulkEngine, Item], Awaitable[Result]],
) -> RunReport:
    started = time.perf_counter()
    # Backends first: a missing API key must fail before the cache file is created.
    backends = make_backends(list(specs), settings.endpoint)
    engine = BulkEngine(backends, None, settings.endpoint.max_connections, settings.retry)
    engine.openai_endpoint = openai_endpoint(settings.endpoint.base_url)
    lock = contextlib.ExitStack()
    try:
        if settings.cache_path:
            path = settings.cache_path
            lock.enter_context(exclusive(path.with_name(path.name + ".lock"), f"cache {path}"))
        cache = CompletionCache(settings.cache_path) if settings.cache_path else None
        try:  # a dead endpoint fails now, not after every item's retries
            await asyncio.to_thread(check_endpoints, specs, settings.endpoint)
        except BaseException:
            if cache is not None:
                cache.close()
            raise
    except BaseException:
        lock.close()
        await engine.close()
        raise
    engine.cache = cache
    engine.budget = settings.budget
    startup = time.perf_counter() - started
    progress = ProgressReporter(len(items), settings.description) if settings.show_progress else None
    engine.progress = progress
    try:
        with progress if progress is not None else contextlib.nullcontext():
            run_started = time.perf_counter()
            results = await engine.run_jobs(items, lambda item: job(engine, item))
            run_seconds = time.perf_counter() - run_started
            if progress is not None:
                progress.finish(engine.stats)
    finally:
        notes: dict[str, Any] = {}
        for backend in {id(b): b for b in backends.values()}.values():
            notes.update(backend.summary() if hasattr(backend, "summary") else {})
        try:
            await engine.close()
            if cache is not None:
                cache.close()
        finally:
            lock.close()
    if settings.budget is not None and settings.budget.stopped:
        raise cap_reached(settings.budget, engine.stats.fresh_successes)
    return RunReport(results, engine.stats, startup, run_seconds, notes)
