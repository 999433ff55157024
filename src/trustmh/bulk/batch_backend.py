"""``trustmh generate|judge --batch SIZE``: the OpenAI Batch API as an engine backend.

The engine still calls ``complete(request)`` once per request; this backend queues the calls
and answers them from batches. A queue is submitted when it holds ``batch_size`` requests or
``flush_seconds`` after its first one: the JSONL file (``custom_id`` = the request's cache key)
is uploaded, the batch created and recorded in the cache database (:class:`BatchStore`) at
once, then polled every ``poll_seconds`` until it ends. Each request's result line resolves
its call; a request that failed inside the batch (an error line, or no line in an expired
batch) raises :class:`RetryableError`, so the engine's retry loop sends it again in a later
batch and counts the retry. A request whose key is in a batch still pending — a run killed
while waiting — is answered by polling that batch: nothing is submitted twice. (A kill in the
milliseconds between the provider accepting a batch and the record's commit would submit
those requests again.)

Anthropic Message Batches are not implemented (the ``anthropic`` SDK is not a dependency).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from trustmh.bulk.backends import _completion_from_body, redact
from trustmh.bulk.batch_store import BatchStore
from trustmh.bulk.request import ChatRequest, Completion
from trustmh.bulk.retry import PermanentError, RetryableError

FINAL_STATUSES = ("completed", "expired", "failed", "cancelled")
MAX_POLL_FAILURES = 10


class BatchBackend:
    def __init__(
        self,
        base_url: str | None,
        api_key: str,
        store: BatchStore,
        batch_size: int,
        poll_seconds: float = 30.0,
        flush_seconds: float = 2.0,
    ) -> None:
        import openai

        self._secret = api_key
        self.client = openai.AsyncOpenAI(base_url=base_url, api_key=api_key, max_retries=3, timeout=300.0)
        self.store = store
        self.batch_size = batch_size
        self.poll_seconds = poll_seconds
        self.flush_seconds = flush_seconds
        self._queue: list[tuple[str, ChatRequest]] = []
        self._waiters: dict[str, list[asyncio.Future[Completion]]] = {}
        self._pollers: dict[str, asyncio.Task[None]] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.submitted = 0  # batches this run created
        self.resumed = 0  # pending batches of an earlier run polled instead of resubmitting

    async def complete(self, request: ChatRequest) -> Completion:
        key = request.cache_key()
        future: asyncio.Future[Completion] = asyncio.get_running_loop().create_future()
        self._waiters.setdefault(key, []).append(future)
        pending = self.store.pending_batch(key)
        if pending is not None:
            if pending not in self._pollers:
                self.resumed += 1
            self._poll(pending)
        else:
            self._enqueue(key, request)
        return await future

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

    def _spawn(self, coroutine: Any) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _submit(self, batch: list[tuple[str, ChatRequest]]) -> None:
        lines = [
            json.dumps(
                {
                    "custom_id": key,
                    "method": "POST",
                    "url": "/v1/chat/completions",
                    "body": {"model": r.model.partition("/")[2], "messages": list(r.messages), **r.params.as_dict()},
                },
                ensure_ascii=False,
            )
            for key, r in batch
        ]
        try:
            upload = await self.client.files.create(
                file=("trustmh-batch.jsonl", ("\n".join(lines) + "\n").encode("utf-8")), purpose="batch"
            )
            created = await self.client.batches.create(
                input_file_id=upload.id, endpoint="/v1/chat/completions", completion_window="24h"
            )
        except Exception as error:  # noqa: BLE001 - every queued call gets the failure and is retried
            self._fail([key for key, _ in batch], RetryableError(redact(f"batch submission: {error}", self._secret)))
            return
        self.store.add(created.id, batch[0][1].model, [key for key, _ in batch])
        self.submitted += 1
        self._poll(created.id)

    # --- polling ---------------------------------------------------------------------------
    def _poll(self, batch_id: str) -> None:
        if batch_id not in self._pollers:
            self._pollers[batch_id] = self._spawn(self._wait_for(batch_id))

    async def _wait_for(self, batch_id: str) -> None:
        failures = 0
        try:
            while True:
                try:
                    batch = await self.client.batches.retrieve(batch_id)
                    failures = 0
                except Exception as error:  # noqa: BLE001 - a failed poll is retried; several in a row fail the batch
                    failures += 1
                    if failures >= MAX_POLL_FAILURES:
                        reason = redact(f"polling batch {batch_id}: {error}", self._secret)
                        self._fail(self.store.keys(batch_id), RetryableError(reason))
                        return
                    await asyncio.sleep(self.poll_seconds)
                    continue
                if batch.status in FINAL_STATUSES:
                    await self._collect(batch_id, batch)
                    return
                await asyncio.sleep(self.poll_seconds)
        finally:
            self._pollers.pop(batch_id, None)

    async def _lines(self, file_id: str | None) -> list[dict[str, Any]]:
        if not file_id:
            return []
        content = await self.client.files.content(file_id)
        return [json.loads(line) for line in content.content.decode("utf-8").splitlines() if line.strip()]

    async def _collect(self, batch_id: str, batch: Any) -> None:
        try:
            results = await self._lines(batch.output_file_id) + await self._lines(batch.error_file_id)
        except Exception as error:  # noqa: BLE001 - the batch stays pending: a retry polls it again
            self._fail(
                self.store.keys(batch_id), RetryableError(redact(f"batch {batch_id} results: {error}", self._secret))
            )
            return
        by_key = {str(line.get("custom_id")): line for line in results}
        self.store.finish(batch_id, str(batch.status))
        for key in self.store.keys(batch_id):
            line = by_key.get(key)
            if line is None:
                self._fail([key], RetryableError(f"batch {batch.status} without a result for this request"))
                continue
            self._resolve(key, line)

    def _resolve(self, key: str, line: dict[str, Any]) -> None:
        response = line.get("response") or {}
        status = response.get("status_code")
        body = response.get("body") or {}
        if status == 200:
            try:
                completion = _completion_from_body(body)
            except (RetryableError, PermanentError) as error:
                self._fail([key], error)
                return
            for future in self._waiters.pop(key, []):
                if not future.done():
                    future.set_result(completion)
            return
        failure = (body.get("error") if isinstance(body, dict) else None) or line.get("error") or {}
        code = failure.get("code") or failure.get("type") or status or "unknown"
        reason = redact(f"batch item failed: {code}: {failure.get('message', '')}", self._secret)
        permanent = isinstance(status, int) and 400 <= status < 500 and status not in (408, 409, 429)
        self._fail([key], PermanentError(reason) if permanent else RetryableError(reason))

    def _fail(self, keys: list[str], error: Exception) -> None:
        for key in keys:
            for future in self._waiters.pop(key, []):
                if not future.done():
                    future.set_exception(error)

    def summary(self) -> dict[str, Any]:
        return {"batches": {"submitted": self.submitted, "resumed": self.resumed}}

    async def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.client.close()
        self.store.close()
