"""Bulk engine benchmark: 1,000 chat calls at 100 ms latency over 64 connections.

The OpenAI double runs in a separate process (the machine has 2 cores: the server must
not share the client's). Each contender is timed from its first request to its last
response; startup (imports, client and cache creation) is reported separately.

    python benchmarks/bulk_bench.py [--requests 1000] [--repeats 3]

The ideal is ceil(requests / connections) x latency = 16 x 0.1 s = 1.6 s.
"""

from __future__ import annotations

import sys
import time

IMPORT_STARTED = time.perf_counter()

import argparse  # noqa: E402
import asyncio  # noqa: E402
import math  # noqa: E402
import os  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
from pathlib import Path  # noqa: E402

import aiohttp  # noqa: E402

from trustmh.bulk.backends import EndpointSettings, OpenAIBackend, parse_model  # noqa: E402
from trustmh.bulk.cache import CompletionCache  # noqa: E402
from trustmh.bulk.engine import BulkEngine  # noqa: E402
from trustmh.bulk.generate import ModelColumn, generate  # noqa: E402
from trustmh.bulk.request import ChatRequest, GenerationParams  # noqa: E402
from trustmh.bulk.retry import RetryPolicy  # noqa: E402
from trustmh.bulk.session import RunSettings  # noqa: E402
from trustmh.bulk.tables import Table  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root: tests.doubles
from tests.doubles.openai_double import OpenAIDouble  # noqa: E402

IMPORT_SECONDS = time.perf_counter() - IMPORT_STARTED
MODEL = "openai/bench"


def payload(i: int) -> list[dict[str, str]]:
    return [{"role": "user", "content": f"benchmark message {i}: I have been feeling low lately."}]


async def bare_aiohttp(base_url: str, count: int, connections: int) -> tuple[float, float]:
    """The floor: one aiohttp session, a semaphore, no SDK, no parsing beyond JSON."""
    connector = aiohttp.TCPConnector(limit=connections)
    async with aiohttp.ClientSession(connector=connector) as session:
        gate = asyncio.Semaphore(connections)

        async def one(i: int) -> None:
            async with (
                gate,
                session.post(f"{base_url}/chat/completions", json={"model": "bench", "messages": payload(i)}) as reply,
            ):
                await reply.json()

        started, cpu = time.perf_counter(), time.process_time()
        await asyncio.gather(*(one(i) for i in range(count)))
        return time.perf_counter() - started, time.process_time() - cpu


async def engine_run(base_url: str, count: int, connections: int, cache_dir: Path) -> tuple[float, float, float, int]:
    """Our engine with a fresh cache: (first request -> last response, CPU, startup, failures)."""
    started = time.perf_counter()
    backend = OpenAIBackend(base_url, "sk-bench", 60.0, connections)
    cache = CompletionCache(cache_dir / "engine.sqlite")
    engine = BulkEngine({MODEL: backend}, cache, connections, RetryPolicy())
    requests = [ChatRequest(MODEL, tuple(payload(i)), GenerationParams()) for i in range(count)]
    startup = time.perf_counter() - started
    cpu = time.process_time()
    outcomes = await engine.run_jobs(requests, engine.complete)
    cpu = time.process_time() - cpu
    await engine.close()
    cache.close()
    assert engine.stats.first_request_at is not None and engine.stats.last_response_at is not None
    failures = sum(o.completion is None for o in outcomes)
    return engine.stats.last_response_at - engine.stats.first_request_at, cpu, startup, failures


def generate_run(base_url: str, count: int, connections: int, cache_dir: Path) -> tuple[float, float]:
    """``trustmh generate``'s code path (minus file I/O): planning, progress bar, cache."""
    table = Table(
        Path("bench.csv"),
        ["context"],
        [{"context": payload(i)[0]["content"]} for i in range(count)],
        [f"line {i + 2}" for i in range(count)],
    )
    settings = RunSettings(
        EndpointSettings(base_url, "BENCH_KEY", 60.0, connections),
        cache_dir / "generate.sqlite",
        RetryPolicy(),
        True,
        "generate",
    )
    os.environ["BENCH_KEY"] = "sk-bench"
    cpu = time.process_time()
    result = generate(table, [ModelColumn("bench", parse_model(MODEL))], GenerationParams(), "", settings)
    cpu = time.process_time() - cpu
    stats = result.report.stats
    assert not result.failures and stats.first_request_at is not None and stats.last_response_at is not None
    return stats.last_response_at - stats.first_request_at, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--latency", type=float, default=0.1)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    ideal = math.ceil(args.requests / args.connections) * args.latency

    server_started = time.perf_counter()
    with OpenAIDouble(latency=args.latency, in_process=False) as server:
        server_seconds = time.perf_counter() - server_started
        bare: list[tuple[float, float]] = []
        engine: list[tuple[float, float]] = []
        full: list[tuple[float, float]] = []
        startups: list[float] = []
        for _ in range(args.repeats):
            bare.append(asyncio.run(bare_aiohttp(server.base_url, args.requests, args.connections)))
            with tempfile.TemporaryDirectory() as cache_dir:
                elapsed, cpu, startup, failures = asyncio.run(
                    engine_run(server.base_url, args.requests, args.connections, Path(cache_dir))
                )
                assert failures == 0
                engine.append((elapsed, cpu))
                startups.append(startup)
                full.append(generate_run(server.base_url, args.requests, args.connections, Path(cache_dir)))
        served = sum(server.request_counts.values())

    print(
        f"\n{args.requests} requests, {args.latency * 1000:.0f} ms latency, {args.connections} connections, {args.repeats} repeats (median [best])"
    )
    print(f"server requests served: {served}")
    bare_median = statistics.median(t for t, _ in bare)
    print(f"{'contender':<48} {'first request -> last response':>30}  {'client CPU':>10}")
    print(f"{'ideal':<48} {ideal:6.2f} s")
    for name, runs in (
        ("(a) bare aiohttp loop", bare),
        ("(b) engine (openai SDK + aiohttp, fresh cache)", engine),
        ("(c) generate() path (+ progress bar, planning)", full),
    ):
        median = statistics.median(t for t, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        best = min(t for t, _ in runs)
        print(
            f"{name:<48} {median:6.2f} s [best {best:.2f}] {median / ideal:4.2f}x ideal {median / bare_median:4.2f}x bare"
            f"  {cpu:5.2f} s"
        )
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"startup: imports {IMPORT_SECONDS:.2f} s, engine (client + cache) {statistics.median(startups) * 1000:.1f} ms, double process {server_seconds:.2f} s"
    )


if __name__ == "__main__":
    main()
