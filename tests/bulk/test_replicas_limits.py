"""Replicas (several base URLs for one model) and per-provider caps of the bulk engine."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

from tests.bulk.cli import invoke, read_csv
from tests.bulk.test_cost_cli import conversations
from tests.doubles.openai_double import OpenAIDouble
from trustmh.bulk.limits import LimitedBackend, TokenBucket
from trustmh.bulk.replicas import ReplicaBackend
from trustmh.bulk.request import ChatRequest, Completion, GenerationParams
from trustmh.bulk.retry import RetryableError


class FakeBackend:
    def __init__(self, fail: str | None = None, delay: float = 0.0) -> None:
        self.fail = fail
        self.delay = delay
        self.calls = 0
        self.in_flight = 0
        self.most_in_flight = 0

    async def complete(self, request: ChatRequest) -> Completion:
        self.calls += 1
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            await asyncio.sleep(self.delay)
            if self.fail:
                raise RetryableError(self.fail)
            return Completion("ok", 10, 5, "stop")
        finally:
            self.in_flight -= 1

    async def close(self) -> None:
        return None


def request(index: int) -> ChatRequest:
    return ChatRequest("openai/m", ({"role": "user", "content": f"q{index}"},), GenerationParams(max_tokens=20))


async def gather(backend, count: int) -> list[Completion]:
    return await asyncio.gather(*(backend.complete(request(i)) for i in range(count)))


def test_calls_spread_over_replicas_and_a_dead_one_is_skipped():
    live_a, live_b, dead = (
        FakeBackend(delay=0.01),
        FakeBackend(delay=0.01),
        FakeBackend(fail="connection error: refused"),
    )
    now = [0.0]
    backend = ReplicaBackend([("a", live_a), ("b", live_b), ("dead", dead)], clock=lambda: now[0])
    results = asyncio.run(gather(backend, 30))  # all dispatched at once: a third go to "dead" first
    assert len(results) == 30 and all(r.text == "ok" for r in results)  # and fail over at once
    first_wave = dead.calls
    assert 1 <= first_wave <= 10
    assert live_a.calls + live_b.calls == 30 and min(live_a.calls, live_b.calls) >= 10
    asyncio.run(gather(backend, 30))
    assert dead.calls == first_wave  # down: skipped while the cooldown lasts
    now[0] += 1.5  # one failure's cooldown (1 s) is over, but several failures doubled it
    cooldown = backend.replicas[2].cooldown
    now[0] += cooldown
    asyncio.run(backend.complete(request(0)))
    asyncio.run(backend.complete(request(1)))
    assert dead.calls == first_wave + 1  # tried once more, failed, down again


def test_rate_limits_and_429_are_not_replica_failures():
    limited, other = FakeBackend(fail="HTTP 429: slow down"), FakeBackend()
    backend = ReplicaBackend([("a", limited), ("b", other)])

    async def calls() -> list[object]:
        return await asyncio.gather(*(backend.complete(request(i)) for i in range(4)), return_exceptions=True)

    outcomes = asyncio.run(calls())
    assert any(isinstance(o, RetryableError) for o in outcomes)  # the engine's retry loop decides
    assert backend.replicas[0].down_until == 0.0


def test_every_replica_failing_is_one_retryable_error():
    backend = ReplicaBackend([("a", FakeBackend(fail="HTTP 503: x")), ("b", FakeBackend(fail="timeout"))])
    try:
        asyncio.run(backend.complete(request(0)))
    except RetryableError as error:
        assert "every replica failed" in error.reason
    else:
        raise AssertionError("expected a RetryableError")


def test_provider_connection_cap_and_requests_per_minute():
    inner = FakeBackend(delay=0.02)
    asyncio.run(gather(LimitedBackend(inner, max_connections=3, rpm=None, tpm=None), 20))
    assert inner.most_in_flight == 3

    paced = FakeBackend()
    started = time.monotonic()
    asyncio.run(gather(LimitedBackend(paced, max_connections=None, rpm=120, tpm=None), 24))
    # 2 per second with a 10-second bank of 20: the last 4 wait about 2 s
    assert 1.7 <= time.monotonic() - started < 6


def test_token_bucket_waits_when_empty_and_takes_back_unused_tokens():
    async def scenario() -> float:
        bucket = TokenBucket(600)  # 10 per second, a bank of 100
        await bucket.take(100)
        bucket.give_back(40)  # a call used 60 of the 100 it reserved
        started = time.monotonic()
        await bucket.take(40)  # available at once
        assert time.monotonic() - started < 0.2
        await bucket.take(10)  # the bank is empty: about 1 s
        return time.monotonic() - started

    assert 0.8 <= asyncio.run(scenario()) < 3


def test_generate_over_replicas_with_one_down_loses_nothing(tmp_path: Path, fake_key: str) -> None:
    source = conversations(tmp_path, 40)
    out = tmp_path / "out.csv"
    with OpenAIDouble(latency=0.02) as first, OpenAIDouble(latency=0.02) as second:
        urls = [first.base_url, "http://127.0.0.1:9/v1", second.base_url]  # the middle one refuses connections
        args = ["generate", "--conversations", str(source), "--model", "openai/m", "-o", str(out)]
        args += [arg for url in urls for arg in ("--base-url", url)]
        code, output = invoke(*args, "--cache", str(tmp_path / "c.sqlite"), "--no-progress", "--rpm", "6000")
        counts = [first.request_counts, second.request_counts]
    assert code == 0, output
    assert len(read_csv(out)) == 40
    assert sum(len(c) for c in counts) == 40 and all(len(c) >= 10 for c in counts)
    assert all(set(c.values()) == {1} for c in counts)  # each request answered once
    replicas = json.loads((tmp_path / "out.csv.summary.json").read_text())["replicas"]
    assert replicas["http://127.0.0.1:9/v1"]["calls"] >= 1 and sum(r["calls"] for r in replicas.values()) >= 41
