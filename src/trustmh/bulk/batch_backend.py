"""``trustmh generate|judge --batch SIZE``: a provider's batch API as an engine backend.

The engine still calls ``complete(request)`` once per request; this backend queues the calls
and answers them from batches. One engine serves every provider; what differs (OpenAI Batch:
``batch_openai.py``, Anthropic Message Batches: ``batch_anthropic.py``) sits behind
:class:`BatchApi`: create a batch, retrieve its state, read its results, find a batch by its
intent.

A queue is submitted when it holds ``batch_size`` requests or ``flush_seconds`` after its
first one, each request's ``custom_id`` being its cache key. The submission is recorded in
the cache database before it is sent (an intent, :class:`BatchStore`) and bound to the
provider's batch id as soon as the provider answers; the batch is then polled every
``poll_seconds`` until it ends. Each request's result resolves its call; a request that
failed inside the batch (an error result, or no result in an expired or cancelled batch)
raises :class:`RetryableError`, so the engine's retry loop sends it again in a later batch
and counts the retry.

Resuming: a request whose key is in a pending batch — a run killed while waiting — is
answered by polling that batch. A key in an unbound intent (a run killed, or a create call
that failed, between sending the batch and recording the provider's answer) makes the backend
ask the provider whether that batch exists (:meth:`BatchApi.find`): found, it is bound and
polled; not found, the intent is dropped and its requests queued again. Nothing accepted by
the provider is submitted twice (create calls are not retried by the SDK for that reason). A
result that arrives while its call waits to be retried is kept until the call asks again.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from trustmh.bulk.backends import redact
from trustmh.bulk.batch_store import PENDING, BatchStore
from trustmh.bulk.request import ChatRequest, Completion
from trustmh.bulk.retry import RetryableError

MAX_POLL_FAILURES = 10
CLOCK_SKEW_SECONDS = 600.0  # our clock vs the provider's, when matching a batch to an intent


@dataclass(frozen=True)
class BatchState:
    ended: bool
    status: str  # the provider's word for how it ended ("completed", "expired", "ended", ...)
    handle: Any  # the provider's batch object, passed back to :meth:`BatchApi.results`


# A request's result: its completion, or the error (RetryableError / PermanentError) to raise.
ItemResult = Completion | Exception


def jsonl_records(content: bytes) -> list[dict[str, Any]]:
    """The records of a JSONL file (a batch's upload, output file or results stream), split on
    "\n" only, as the providers split and write them: a JSON string may hold U+2028, U+2029 or
    U+0085 unescaped (our uploads write non-ASCII text as it is, and so may a provider), where
    ``str.splitlines`` would cut the record in two."""
    return [json.loads(line) for line in content.decode("utf-8").split("\n") if line.strip()]


class BatchApi(Protocol):
    """One provider's batch protocol, through its official SDK."""

    secret: str
    provider: str  # the model-name prefix of the models it serves ("openai", "anthropic")

    async def create(self, intent: str, requests: Sequence[tuple[str, ChatRequest]]) -> str:
        """Submit ``(custom_id, request)`` pairs as one batch; returns the provider's batch id."""
        ...

    async def retrieve(self, batch_id: str) -> BatchState: ...

    async def results(self, batch_id: str, state: BatchState) -> dict[str, ItemResult]:
        """The results of an ended batch by ``custom_id`` (requests without one are absent)."""
        ...

    async def find(self, intent: str, count: int, since: float, known: Callable[[str], bool]) -> str | None:
        """The id of a batch of ``count`` requests submitted for ``intent`` at or after ``since``
        (epoch seconds), not ``known`` to the store; ``None`` if the provider has none."""
        ...

    async def close(self) -> None: ...


class BatchBackend:
    def __init__(
        self,
        api: BatchApi,
        store: BatchStore,
        batch_size: int,
        poll_seconds: float = 30.0,
        flush_seconds: float = 2.0,
    ) -> None:
        self.api = api
        self.store = store
        self.batch_size = batch_size
        self.poll_seconds = poll_seconds
        self.flush_seconds = flush_seconds
        self._queue: list[tuple[str, ChatRequest]] = []
        self._waiters: dict[str, list[asyncio.Future[Completion]]] = {}
        self._pollers: dict[str, asyncio.Task[None]] = {}
        self._recoveries: dict[str, asyncio.Task[str | None]] = {}
        self._recovered: dict[str, str | None] = {}  # intent -> the batch it was bound to (None: dropped)
        self._recovery_lock = asyncio.Lock()
        self._unclaimed: dict[str, Completion] = {}  # answers that arrived while nobody waited for them
        self._timer: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.submitted = 0  # batches this run created
        self.resumed = 0  # pending batches of an earlier run polled instead of resubmitting
        self.recovered = 0  # of those, batches found at the provider from an unbound intent

    async def complete(self, request: ChatRequest) -> Completion:
        key = request.cache_key()
        early = self._unclaimed.pop(key, None)
        if early is not None:
            return early
        future: asyncio.Future[Completion] = asyncio.get_running_loop().create_future()
        self._waiters.setdefault(key, []).append(future)
        try:
            batch_id = await self._recorded_batch(key)
        except Exception:
            self._waiters.pop(key, None)
            raise
        if batch_id is None:
            self._enqueue(key, request)
        else:
            if batch_id not in self._pollers:
                self.resumed += 1
            self._poll(batch_id)
        return await future

    async def _recorded_batch(self, key: str) -> str | None:
        """The pending batch holding ``key``, recovering an unbound intent first; None: none."""
        found = self.store.open_batch(key)
        if found is None:
            return None
        batch_id, status = found
        if status == PENDING:
            return batch_id
        recovery = self._recoveries.get(batch_id)
        if recovery is None:
            recovery = self._recoveries[batch_id] = self._spawn(self._recover(batch_id))
        return await asyncio.shield(recovery)

    async def _recover(self, intent: str) -> str | None:
        """Bind or drop ``intent``. Every older unbound intent is settled first, in order: a
        provider without batch metadata (Anthropic) is matched by time and size, so the oldest
        intent must take the oldest matching batch."""
        async with self._recovery_lock:
            if intent not in self._recovered:
                for older, since, count in self.store.intents(self.api.provider):
                    try:
                        batch_id = await self.api.find(older, count, since, self.store.known)
                    except Exception as error:  # noqa: BLE001 - unknown yet: the intent stays, a retry asks again
                        del self._recoveries[intent]
                        raise RetryableError(redact(f"looking for batch {older}: {error}", self.api.secret)) from None
                    if batch_id is None:
                        self.store.drop(older)
                    else:
                        self.store.bind(older, batch_id)
                        self.recovered += 1
                    self._recovered[older] = batch_id
                    if older == intent:
                        break
            return self._recovered.get(intent)

    # --- submitting ------------------------------------------------------------------------
    def _enqueue(self, key: str, request: ChatRequest) -> None:
        self._queue.append((key, request))
        if len(self._queue) >= self.batch_size:
            self._flush()
        elif self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(self.flush_seconds, self._flush)

    def _flush(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        batch, self._queue = self._queue[: self.batch_size], self._queue[self.batch_size :]
        if batch:
            self._spawn(self._submit(batch))
        if self._queue:
            self._timer = asyncio.get_running_loop().call_later(self.flush_seconds, self._flush)

    def _spawn(self, coroutine: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _submit(self, batch: list[tuple[str, ChatRequest]]) -> None:
        keys = [key for key, _ in batch]
        intent = self.store.add_intent(batch[0][1].model, keys)
        try:
            batch_id = await self.api.create(intent, batch)
        except Exception as error:  # noqa: BLE001 - every queued call gets the failure and is retried
            # The provider may have accepted it before the failure (a timeout on the answer):
            # the intent stays, and the retry of each call asks the provider before resubmitting.
            self._fail(keys, RetryableError(redact(f"batch submission: {error}", self.api.secret)))
            return
        self.store.bind(intent, batch_id)
        self.submitted += 1
        self._poll(batch_id)

    # --- polling ---------------------------------------------------------------------------
    def _poll(self, batch_id: str) -> None:
        if batch_id not in self._pollers:
            self._pollers[batch_id] = self._spawn(self._wait_for(batch_id))

    async def _wait_for(self, batch_id: str) -> None:
        failures = 0
        try:
            while True:
                try:
                    state = await self.api.retrieve(batch_id)
                    failures = 0
                except Exception as error:  # noqa: BLE001 - a failed poll is retried; several in a row fail the batch
                    failures += 1
                    if failures >= MAX_POLL_FAILURES:
                        reason = redact(f"polling batch {batch_id}: {error}", self.api.secret)
                        self._fail(self.store.keys(batch_id), RetryableError(reason))
                        return
                    await asyncio.sleep(self.poll_seconds)
                    continue
                if state.ended:
                    await self._collect(batch_id, state)
                    return
                await asyncio.sleep(self.poll_seconds)
        finally:
            self._pollers.pop(batch_id, None)

    async def _collect(self, batch_id: str, state: BatchState) -> None:
        try:
            results = await self.api.results(batch_id, state)
        except Exception as error:  # noqa: BLE001 - the batch stays pending: a retry polls it again
            reason = redact(f"batch {batch_id} results: {error}", self.api.secret)
            self._fail(self.store.keys(batch_id), RetryableError(reason))
            return
        self.store.finish(batch_id, state.status)
        for key in self.store.keys(batch_id):
            result = results.get(key, RetryableError(f"batch {state.status} without a result for this request"))
            if isinstance(result, Exception):
                self._fail([key], result)
                continue
            waiting = self._waiters.pop(key, [])
            if not waiting:  # its call is between retries (a recovered batch): keep the answer for it
                self._unclaimed[key] = result
            for future in waiting:
                if not future.done():
                    future.set_result(result)

    def _fail(self, keys: list[str], error: Exception) -> None:
        for key in keys:
            for future in self._waiters.pop(key, []):
                if not future.done():
                    future.set_exception(error)

    def summary(self) -> dict[str, Any]:
        return {"batches": {"submitted": self.submitted, "resumed": self.resumed, "recovered": self.recovered}}

    async def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.api.close()
        self.store.close()
