"""The bulk engine: a pool of workers over cached, retried, accounted chat calls.

A fixed pool of ``max_connections`` workers pulls jobs from one iterator, so 100,000 items
never become 100,000 pending tasks, and at most ``max_connections`` calls are in flight.
A job is any coroutine making one or more calls through :meth:`BulkEngine.complete` (a
generation is one call; a judgement may re-ask after an unusable verdict).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, TypeVar

from trustmh.bulk.backends import Backend
from trustmh.bulk.budget import Budget, BudgetStop, Reservation
from trustmh.bulk.cache import CompletionCache
from trustmh.bulk.progress import ProgressReporter
from trustmh.bulk.request import ChatOutcome, ChatRequest, Completion, at_endpoint
from trustmh.bulk.retry import PermanentError, RetryableError, RetryPolicy
from trustmh.bulk.run_stats import RunStats

GAVE_UP_MARK = " (gave up after "
WORKER_SLICE = 50  # workers started per event-loop turn (see run_jobs)
Item = TypeVar("Item")
Result = TypeVar("Result")


def _reason_kind(reason: str) -> str:
    """A short bucket for counting: the kind of the (last) error ("HTTP 503", "timeout",
    "connection error", "malformed response body", ...), never "gave up after N attempts"."""
    head = reason.split(":", 1)[0].split(GAVE_UP_MARK, 1)[0]
    return head.strip()[:60]


class BulkEngine:
    def __init__(
        self,
        backends: dict[str, Backend],
        cache: CompletionCache | None,
        max_connections: int = 64,
        retry_policy: RetryPolicy | None = None,
        progress: ProgressReporter | None = None,
        seed: int | None = None,
    ) -> None:
        self.backends = backends
        self.cache = cache
        self.max_connections = max_connections
        self.retry_policy = retry_policy or RetryPolicy()
        self.progress = progress
        self.stats = RunStats()
        self._rng = random.Random(seed)
        self._in_flight: dict[str, asyncio.Future[ChatOutcome]] = {}
        self.budget: Budget | None = None  # caps (--max-cost, --max-tokens-total); None: no cap
        self._room: asyncio.Event | None = None  # set when a reservation settles (room for a waiting call)
        # The base URL of the OpenAI-compatible endpoint (--base-url, else $OPENAI_BASE_URL): part of
        # every openai/ request's cache key, so another server's chatbot is called, not replayed.
        self.openai_endpoint = ""

    async def complete(self, request: ChatRequest) -> ChatOutcome:
        """One call: from the cache if there, else from the backend with retries."""
        self.stats.calls += 1
        request = at_endpoint(request, self.openai_endpoint)
        key = request.cache_key()
        if self.cache is not None:
            hit = self.cache.lookup((key,)).get(key)
            if hit is not None:
                self.stats.cache_hits += 1
                self.stats.cached_input_tokens += hit.input_tokens
                self.stats.cached_output_tokens += hit.output_tokens
                return ChatOutcome(hit, attempts=0, cached=True)
        shared = self._in_flight.get(key)
        if shared is not None:
            # The same call is already on its way (duplicate rows): wait for it, never pay twice.
            self.stats.deduplicated += 1
            return await asyncio.shield(shared)
        future: asyncio.Future[ChatOutcome] = asyncio.get_running_loop().create_future()
        self._in_flight[key] = future
        try:
            outcome = await self._call_with_retries(request)  # may raise BudgetStop
        except asyncio.CancelledError:
            future.cancel()
            raise
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # mark retrieved: nobody may be waiting
            raise
        finally:
            del self._in_flight[key]
        future.set_result(outcome)
        if outcome.completion is not None:
            self._account_fresh(outcome.completion)
            if self.cache is not None:
                self.cache.put(key, request.model, outcome.completion)
        else:
            self.stats.failures += 1
            self.stats.failure_reasons[_reason_kind(outcome.error or "")] += 1
        return outcome

    async def _call_with_retries(self, request: ChatRequest) -> ChatOutcome:
        backend = self.backends[request.model]
        policy = self.retry_policy
        error = "not attempted"
        for attempt in range(1, policy.max_attempts + 1):
            if self.stats.first_request_at is None:
                self.stats.first_request_at = time.perf_counter()
            reservation = await self._reserve(request)
            try:
                completion = await backend.complete(request)
            except PermanentError as failure:
                self._settle(reservation, None)
                return ChatOutcome(None, failure.reason, attempt)
            except RetryableError as failure:
                self._settle(reservation, None, billed_maybe=not failure.answered)
                error = failure.reason
                if attempt == policy.max_attempts:
                    break
                self.stats.retries += 1
                self.stats.retry_reasons[_reason_kind(error)] += 1
                await asyncio.sleep(policy.delay(attempt, failure.retry_after, self._rng))
                continue
            except BaseException:  # cancelled in flight: the server may still finish and bill it
                self._settle(reservation, None, billed_maybe=True)
                raise
            self._settle(reservation, completion)
            self.stats.last_response_at = time.perf_counter()
            return ChatOutcome(completion, attempts=attempt)
        # The last error first, so the reason's kind is what went wrong, not that we gave up.
        return ChatOutcome(None, f"{error}{GAVE_UP_MARK}{policy.max_attempts} attempts)", policy.max_attempts)

    async def _reserve(self, request: ChatRequest) -> Reservation | None:
        """The attempt's worst case, reserved against the caps (None: no cap). A call that fits
        only once calls in flight settle waits for them (a cap below the concurrent worst case
        lowers concurrency, down to one call); one that can never fit raises :class:`BudgetStop`."""
        if self.budget is None:
            return None
        while True:
            reservation = self.budget.try_reserve(request)
            if reservation is not None:
                return reservation
            self._room = self._room or asyncio.Event()
            self._room.clear()
            await self._room.wait()

    def _settle(
        self, reservation: Reservation | None, completion: Completion | None, billed_maybe: bool = False
    ) -> None:
        """Count the attempt against the caps: its usage, its worst case when it may have been
        billed without an answer (timeout, dropped, cancelled), else nothing."""
        if reservation is None or self.budget is None:
            return
        if completion is None and billed_maybe:
            self.budget.settle_unknown(reservation)
        else:
            self.budget.settle(reservation, completion)
        if self._room is not None:
            self._room.set()

    def _account_fresh(self, completion: Completion) -> None:
        self.stats.fresh_successes += 1
        self.stats.input_tokens += completion.input_tokens
        self.stats.output_tokens += completion.output_tokens

    async def run_jobs(self, items: Sequence[Item], job: Callable[[Item], Awaitable[Result]]) -> list[Result]:
        """Run ``job`` on every item with at most ``max_connections`` jobs at once, in order."""
        results: list[Any] = [None] * len(items)
        self._room = None  # made on this run's event loop when a call first waits
        pending: Iterable[tuple[int, Item]] = iter(enumerate(items))

        async def worker() -> None:
            # Workers share one iterator; with a single event loop no lock is needed.
            for index, item in pending:
                if self.budget is not None and self.budget.stopped:
                    return  # a cap was reached: take no new work, let the calls in flight finish
                try:
                    results[index] = await job(item)
                except BudgetStop:
                    return
                if self.progress is not None:
                    self.progress.advance(self.stats)

        workers = min(self.max_connections, max(1, len(items)))
        started: list[asyncio.Task[None]] = []
        try:
            # Started a slice at a time, yielding between slices: with a batch backend every
            # call waits at once (10,000 workers), and a batch filled by the first slices is
            # then uploaded while the next ones build their requests, not after all of them.
            for first in range(0, workers, WORKER_SLICE):
                started += [asyncio.ensure_future(worker()) for _ in range(min(WORKER_SLICE, workers - first))]
                if first + WORKER_SLICE < workers:
                    await asyncio.sleep(0)
            await asyncio.gather(*started)
        except BaseException:
            for task in started:
                task.cancel()
            await asyncio.gather(*started, return_exceptions=True)
            raise
        finally:
            if self.cache is not None:
                self.cache.flush()
        return results

    async def close(self) -> None:
        for backend in {id(b): b for b in self.backends.values()}.values():
            await backend.close()
