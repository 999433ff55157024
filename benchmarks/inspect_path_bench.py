"""The inspect path against the OpenAI double: samples/s and CPU ms per sample.

Workload: N samples (default 1000), 100 ms simulated latency, 64 connections, the double in
a separate process (its CPU is not counted). Measured in the same run:

* ideal: N x latency / connections (1.6 s for the defaults);
* a bare aiohttp loop posting the same chat requests (the floor for any Python client);
* inspect alone: a plain inspect Task, ``generate()`` + ``match()``, inspect's defaults;
* trustmh: the same samples through our scorer and metrics (the PsyLeak scorer) and
  exactly the eval-set options ``trustmh run`` uses (``trustmh.run.runner.eval_set_options``:
  log_buffer=1 for resume, retries, timeouts, chat completions, no SDK retries).

Each inspect configuration runs ``--reps`` times, interleaved; the best run is reported.
The goal: trustmh adds < 10% CPU per sample on top of inspect alone.

    PYTHONPATH=src python benchmarks/inspect_path_bench.py [--samples 1000] [--reps 2]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Measure:
    name: str
    wall: float
    cpu: float
    samples: int
    errors: int = 0

    @property
    def rate(self) -> float:
        return self.samples / self.wall

    @property
    def cpu_ms(self) -> float:
        return 1000 * self.cpu / self.samples


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime + children.ru_utime + children.ru_stime


def workload(n: int) -> list[tuple[str, str, dict]]:
    """``(id, input, metadata)``: the PsyLeak starter samples, repeated to ``n`` (unique inputs)."""
    from trustmh.pillars.privacy.dataset import psyleak_dataset

    base = list(psyleak_dataset("starter", None))
    out = []
    for i in range(n):
        sample = base[i % len(base)]
        out.append((f"{i // len(base)}-{sample.id}", f"{sample.input}\n(case {i})", dict(sample.metadata or {})))
    return out


def bare_aiohttp(base_url: str, items: list[tuple[str, str, dict]], connections: int) -> Measure:
    import aiohttp

    async def run() -> int:
        errors = 0
        semaphore = asyncio.Semaphore(connections)
        connector = aiohttp.TCPConnector(limit=connections)
        async with aiohttp.ClientSession(connector=connector, headers={"Authorization": "Bearer sk-bench"}) as session:

            async def one(text: str) -> None:
                nonlocal errors
                async with semaphore:
                    body = {
                        "model": "test-model",
                        "messages": [{"role": "user", "content": text}],
                        "max_tokens": 160,
                        "temperature": 0,
                    }
                    async with session.post(f"{base_url}/chat/completions", json=body) as response:
                        payload = await response.json()
                        if response.status != 200 or not payload["choices"][0]["message"]["content"]:
                            errors += 1

            await asyncio.gather(*(one(text) for _, text, _ in items))
        return errors

    cpu0, t0 = cpu_seconds(), time.perf_counter()
    errors = asyncio.run(run())
    return Measure("bare aiohttp loop", time.perf_counter() - t0, cpu_seconds() - cpu0, len(items), errors)


def _errors(logs: list) -> int:
    return sum(1 for log in logs for s in (log.samples or []) if s.error) + sum(
        1 for log in logs if log.status != "success"
    )


def inspect_alone(items: list[tuple[str, str, dict]], connections: int, log_dir: str) -> Measure:
    from inspect_ai import Task, eval
    from inspect_ai.dataset import MemoryDataset, Sample
    from inspect_ai.model import GenerateConfig
    from inspect_ai.scorer import match
    from inspect_ai.solver import generate

    task = Task(
        dataset=MemoryDataset([Sample(id=sid, input=text, target="no") for sid, text, _ in items]),
        solver=generate(),
        scorer=match(),
        config=GenerateConfig(max_tokens=160, temperature=0.0),
        name="plain_inspect",
    )
    cpu0, t0 = cpu_seconds(), time.perf_counter()
    logs = eval(
        task,
        model="openai/test-model",
        model_args={"responses_api": False},
        max_connections=connections,
        log_dir=log_dir,
        display="none",
    )
    return Measure(
        "inspect alone (generate + match)", time.perf_counter() - t0, cpu_seconds() - cpu0, len(items), _errors(logs)
    )


def trustmh_path(items: list[tuple[str, str, dict]], connections: int | None, log_dir: str) -> Measure:
    from inspect_ai import Task, eval_set
    from inspect_ai.dataset import MemoryDataset, Sample
    from inspect_ai.model import GenerateConfig
    from inspect_ai.solver import generate

    import trustmh._registry  # noqa: F401
    from trustmh.pillars.privacy.scorers import psyleak_scorer
    from trustmh.run.runner import eval_set_options
    from trustmh.tasking.declare import task_metadata

    task = Task(
        dataset=MemoryDataset([Sample(id=sid, input=text, metadata=meta) for sid, text, meta in items]),
        solver=generate(),
        scorer=psyleak_scorer(),
        config=GenerateConfig(max_tokens=160, temperature=0.0),
        metadata=task_metadata("privacy", "starter", ("trustmh",)),
        name="trustmh_psyleak_bench",
    )
    cpu0, t0 = cpu_seconds(), time.perf_counter()
    _, logs = eval_set(
        tasks=[task],
        log_dir=log_dir,
        **eval_set_options(["openai/test-model"], max_connections=connections, display="none"),
    )
    label = f"trustmh (our scorer + run options, {connections or 'default'} connections)"
    return Measure(label, time.perf_counter() - t0, cpu_seconds() - cpu0, len(items), _errors(logs))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--latency", type=float, default=0.1)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--reps", type=int, default=2)
    parser.add_argument("--skip-default-connections", action="store_true")
    args = parser.parse_args()

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root: tests.doubles
    from tests.doubles.openai_double import OpenAIDouble

    items = workload(args.samples)
    ideal = args.samples * args.latency / args.connections
    scratch = tempfile.mkdtemp(prefix="trustmh-bench-")
    results: dict[str, list[Measure]] = {}
    with OpenAIDouble(latency=args.latency, in_process=False) as double:
        os.environ["OPENAI_BASE_URL"] = double.base_url
        os.environ["OPENAI_API_KEY"] = "sk-bench-not-a-key"
        bare_aiohttp(double.base_url, items[:64], args.connections)  # warm up imports/sockets
        # warm up both inspect paths (imports, provider and registry set-up) outside the timings
        inspect_alone(items[:32], args.connections, os.path.join(scratch, "warm-inspect"))
        trustmh_path(items[:32], args.connections, os.path.join(scratch, "warm-trustmh"))
        results.setdefault("bare", []).append(bare_aiohttp(double.base_url, items, args.connections))
        for rep in range(args.reps):
            order = ("inspect", "trustmh") if rep % 2 == 0 else ("trustmh", "inspect")
            for kind in order:
                log_dir = os.path.join(scratch, f"{kind}-{rep}")
                if kind == "inspect":
                    measure = inspect_alone(items, args.connections, log_dir)
                else:
                    measure = trustmh_path(items, args.connections, log_dir)
                results.setdefault(kind, []).append(measure)
                print(
                    f"  rep {rep + 1}: {measure.name}: {measure.wall:.2f} s, {measure.cpu_ms:.2f} CPU ms/sample, errors {measure.errors}",
                    flush=True,
                )
        if not args.skip_default_connections:
            measure = trustmh_path(items, None, os.path.join(scratch, "trustmh-default"))
            results["trustmh-default"] = [measure]
        served = sum(double.request_counts.values())
    shutil.rmtree(scratch, ignore_errors=True)

    best = {kind: min(ms, key=lambda m: m.cpu) for kind, ms in results.items()}
    print(
        f"\n{args.samples} samples, {args.latency * 1000:.0f} ms latency, {args.connections} connections, double in a separate process; {served} requests served"
    )
    print(f"{'configuration':<62} {'wall s':>8} {'samples/s':>10} {'x ideal':>8} {'CPU ms/sample':>14}")
    print(
        f"{'ideal (N x latency / connections)':<62} {ideal:>8.2f} {args.samples / ideal:>10.1f} {1.0:>8.2f} {'-':>14}"
    )
    for kind in ("bare", "inspect", "trustmh", "trustmh-default"):
        if kind in best:
            m = best[kind]
            print(
                f"{m.name:<62} {m.wall:>8.2f} {m.rate:>10.1f} {m.wall / ideal:>8.2f} {m.cpu_ms:>14.2f}"
                + (f"  ({m.errors} errors)" if m.errors else "")
            )
    inspect_best, ours_best = best["inspect"], best["trustmh"]
    cpu_overhead = ours_best.cpu / inspect_best.cpu - 1
    wall_overhead = ours_best.wall / inspect_best.wall - 1
    print(
        f"trustmh over inspect alone: CPU {cpu_overhead * 100:+.1f}%  wall {wall_overhead * 100:+.1f}%   (goal: < +10%)"
    )
    print(f"inspect alone over bare aiohttp: CPU x{inspect_best.cpu / best['bare'].cpu:.1f}")


if __name__ == "__main__":
    main()
