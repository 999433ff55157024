"""2,000 requests over 3 replicas at 100 ms latency, one replica killed half-way.

Three loopback OpenAI doubles (each in its own process) stand for three vLLM replicas. The
engine (``BulkEngine`` over a ``ReplicaBackend`` of three ``OpenAIBackend`` clients, no
cache) sends 2,000 requests with 64 workers. Baseline in the same run: the same engine on one
double with no failure. Variant: the same three replicas, one of them killed (SIGKILL) once
1,000 responses are in. Ideal = ceil(2000 / 64) x 100 ms = 3.2 s (the workers are the limit;
the doubles have no throughput cap). Reports wall time (first request -> last response), x
ideal, failed requests (must be 0) and the calls each replica took.

    python benchmarks/replicas_bench.py [--repeats 3]
"""

from __future__ import annotations

import argparse
import asyncio
import math
import statistics
import sys
import time
from pathlib import Path

from trustmh.bulk.backends import OpenAIBackend
from trustmh.bulk.engine import BulkEngine
from trustmh.bulk.replicas import ReplicaBackend
from trustmh.bulk.request import ChatRequest, GenerationParams
from trustmh.bulk.retry import RetryPolicy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root: tests.doubles
from tests.doubles.openai_double import OpenAIDouble

MODEL = "openai/bench"


async def run(urls: list[str], count: int, workers: int, kill: OpenAIDouble | None) -> tuple[float, int, dict]:
    clients = [(url, OpenAIBackend(url, "sk-bench", 30.0, workers)) for url in urls]
    backend = clients[0][1] if len(clients) == 1 else ReplicaBackend(clients)
    engine = BulkEngine({MODEL: backend}, None, workers, RetryPolicy())
    requests = [
        ChatRequest(MODEL, ({"role": "user", "content": f"request {i}"},), GenerationParams(max_tokens=16))
        for i in range(count)
    ]
    done = 0

    async def job(request: ChatRequest):
        nonlocal done
        outcome = await engine.complete(request)
        done += 1
        if kill is not None and done == count // 2:
            kill._process.kill()
        return outcome

    outcomes = await engine.run_jobs(requests, job)
    await engine.close()
    stats = engine.stats
    assert stats.first_request_at is not None and stats.last_response_at is not None
    counts = backend.counts() if isinstance(backend, ReplicaBackend) else {}
    return stats.last_response_at - stats.first_request_at, sum(o.completion is None for o in outcomes), counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=64)
    parser.add_argument("--latency", type=float, default=0.1)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    ideal = math.ceil(args.requests / args.workers) * args.latency
    single: list[float] = []
    healthy: list[float] = []
    failing: list[float] = []
    for _ in range(args.repeats):
        with OpenAIDouble(latency=args.latency, in_process=False) as one:
            elapsed, failed, _ = asyncio.run(run([one.base_url], args.requests, args.workers, None))
            assert failed == 0
            single.append(elapsed)
        with (
            OpenAIDouble(latency=args.latency, in_process=False) as a,
            OpenAIDouble(latency=args.latency, in_process=False) as b,
            OpenAIDouble(latency=args.latency, in_process=False) as c,
        ):
            elapsed, failed, counts = asyncio.run(
                run([a.base_url, b.base_url, c.base_url], args.requests, args.workers, None)
            )
            assert failed == 0
            healthy.append(elapsed)
        with (
            OpenAIDouble(latency=args.latency, in_process=False) as a,
            OpenAIDouble(latency=args.latency, in_process=False) as b,
            OpenAIDouble(latency=args.latency, in_process=False) as c,
        ):
            started = time.perf_counter()
            elapsed, failed, kill_counts = asyncio.run(
                run([a.base_url, b.base_url, c.base_url], args.requests, args.workers, c)
            )
            assert failed == 0, f"{failed} requests lost"
            failing.append(elapsed)
            del started
    print(f"ideal {ideal:.2f} s ({args.requests} requests, {args.workers} workers, {args.latency * 1000:.0f} ms)")
    for name, times in (
        ("one double (baseline)", single),
        ("3 replicas", healthy),
        ("3 replicas, 1 killed half-way", failing),
    ):
        median = statistics.median(times)
        print(f"{name:32s} median {median:.2f} s [best {min(times):.2f}]  x ideal {median / ideal:.2f}  failed 0")
    print(f"calls per replica, healthy: {counts}")
    print(f"calls per replica, one killed: {kill_counts}")


if __name__ == "__main__":
    main()
