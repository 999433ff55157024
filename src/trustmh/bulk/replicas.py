"""Several base URLs serving one model (vLLM / SGLang replicas), used as one backend.

Each call goes to the healthy replica with the fewest calls in flight (ties: round robin), so
fast replicas take more work. A replica that fails a call with a connection error, a timeout or
HTTP 5xx is marked down for a cooldown (1 s, doubling on each further failure, at most 60 s) and
the call is tried at once on another replica: a dead replica costs one failed attempt per
cooldown, not a backoff per call. When every replica is down, the one coming back soonest is
tried. A 429 or a 4xx is the caller's business (the engine's retry loop), not the replica's.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from trustmh.bulk.backends import Backend
from trustmh.bulk.request import ChatRequest, Completion
from trustmh.bulk.retry import RetryableError

FIRST_COOLDOWN = 1.0
MAX_COOLDOWN = 60.0


def replica_failure(error: RetryableError) -> bool:
    """A failure that says something about the replica rather than about the load or the request."""
    reason = error.reason
    return reason.startswith(("connection error", "timeout", "HTTP 5", "unexpected", "malformed"))


@dataclass
class Replica:
    url: str
    backend: Backend
    in_flight: int = 0
    down_until: float = 0.0
    cooldown: float = FIRST_COOLDOWN
    calls: int = 0
    failures: int = 0


class ReplicaBackend:
    """A :class:`Backend` spreading calls over replicas of one model (see module docstring)."""

    def __init__(self, replicas: Sequence[tuple[str, Backend]], clock: Callable[[], float] = time.monotonic) -> None:
        self.replicas = [Replica(url, backend) for url, backend in replicas]
        self._clock = clock
        self._turn = itertools.count()

    def _choose(self, exclude: set[int]) -> int:
        now = self._clock()
        candidates = [i for i in range(len(self.replicas)) if i not in exclude]
        healthy = [i for i in candidates if self.replicas[i].down_until <= now]
        if not healthy:  # all down: the one back soonest
            return min(candidates, key=lambda i: self.replicas[i].down_until)
        start = next(self._turn) % len(self.replicas)
        return min(healthy, key=lambda i: (self.replicas[i].in_flight, (i - start) % len(self.replicas)))

    async def complete(self, request: ChatRequest) -> Completion:
        tried: set[int] = set()
        while True:
            index = self._choose(tried)
            replica = self.replicas[index]
            replica.in_flight += 1
            replica.calls += 1
            try:
                completion = await replica.backend.complete(request)
            except RetryableError as error:
                if not replica_failure(error):
                    raise
                replica.failures += 1
                replica.down_until = self._clock() + replica.cooldown
                replica.cooldown = min(MAX_COOLDOWN, replica.cooldown * 2)
                tried.add(index)
                if len(tried) == len(self.replicas):
                    raise RetryableError(
                        f"{error.reason} (every replica failed)", error.retry_after, error.answered
                    ) from None
                continue
            finally:
                replica.in_flight -= 1
            replica.cooldown = FIRST_COOLDOWN
            return completion

    def counts(self) -> dict[str, dict[str, int]]:
        return {r.url: {"calls": r.calls, "failures": r.failures} for r in self.replicas}

    def summary(self) -> dict[str, object]:
        return {"replicas": self.counts()}

    async def close(self) -> None:
        for replica in self.replicas:
            await replica.backend.close()
