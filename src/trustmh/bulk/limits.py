"""Per-provider caps on a backend: calls in flight, requests per minute, tokens per minute.

The caps hold for every call through the wrapped backend — all models and, in ``judge``, first
asks and re-asks alike — because one backend serves all the ``openai/...`` models of a run.
Rates are token buckets refilled continuously (``rpm / 60`` requests per second) holding at
most 10 seconds' worth, so a run starts without a burst above what the provider allows. A
call takes from the token bucket its prompt estimate plus its ``max_tokens`` before it is sent
and gets back what it did not use when the reply's usage is known.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from trustmh.bulk.backends import Backend
from trustmh.bulk.request import ChatRequest, Completion
from trustmh.cost.tokens import estimate_prompt_tokens

BURST_SECONDS = 10.0


class TokenBucket:
    """``rate_per_minute`` units per minute, at most ``BURST_SECONDS`` of them banked."""

    def __init__(self, rate_per_minute: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate_per_minute / 60.0
        self.capacity = max(1.0, self.rate * BURST_SECONDS)
        self.level = self.capacity
        self._clock = clock
        self._stamp = clock()
        self._lock = asyncio.Lock()

    def _refill(self) -> None:
        now = self._clock()
        self.level = min(self.capacity, self.level + (now - self._stamp) * self.rate)
        self._stamp = now

    async def take(self, amount: float) -> None:
        """Wait until ``amount`` is available (a request above capacity waits for a full bucket)."""
        amount = min(amount, self.capacity)
        async with self._lock:  # first come, first served
            self._refill()
            while self.level < amount:
                await asyncio.sleep((amount - self.level) / self.rate)
                self._refill()
            self.level -= amount

    def give_back(self, amount: float) -> None:
        self._refill()
        self.level = min(self.capacity, self.level + amount)


class LimitedBackend:
    def __init__(self, backend: Backend, max_connections: int | None, rpm: int | None, tpm: int | None) -> None:
        self.backend = backend
        self._slots = asyncio.Semaphore(max_connections) if max_connections else None
        self._requests = TokenBucket(rpm) if rpm else None
        self._tokens = TokenBucket(tpm) if tpm else None

    async def complete(self, request: ChatRequest) -> Completion:
        if self._slots is not None:
            async with self._slots:
                return await self._paced(request)
        return await self._paced(request)

    async def _paced(self, request: ChatRequest) -> Completion:
        if self._requests is not None:
            await self._requests.take(1)
        reserved = estimate_prompt_tokens(request.messages) + request.params.max_tokens
        if self._tokens is not None:
            await self._tokens.take(reserved)
        completion = await self.backend.complete(request)
        if self._tokens is not None:
            used = completion.input_tokens + completion.output_tokens
            if used and used < reserved:
                self._tokens.give_back(reserved - used)
        return completion

    def summary(self) -> dict[str, object]:
        inner = getattr(self.backend, "summary", None)
        return inner() if inner is not None else {}

    async def close(self) -> None:
        await self.backend.close()
