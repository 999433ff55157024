"""10,000 judge requests through the batch path of ``trustmh judge --batch`` (OpenAI Batch, or
Anthropic Message Batches with ``--provider anthropic``).

A synthetic wide responses file (1,000 conversations x 10 responses, as MentalAlign-70k) is
judged by ``trustmh judge --batch 2000`` (5 batches) against the batch-API double, whose
simulated processing time is ``--delay`` seconds per batch (default 60). The double runs in
this process, the command in its own process, so their CPU is apart. Ideal = the processing
delay (every batch submitted at once, answered together). Our overhead = wall time - ideal:
start-up, reading the table, building and uploading 10,000 requests, polling granularity
(``--batch-poll 1``), downloading and parsing the results, the cache, writing the output.
Goal: < 5% of the wall time.

The overhead is split at the double's clock: *before* = until the last batch was accepted
(start-up, building and uploading), *after* = from the end of the last batch's processing to
the exit (the poll that sees it, downloading and parsing the results, the output). The double
produces a batch's results while it is "processing", as a provider does, so the first poll
after it ends only publishes them. As ``cost_dry_run_bench.py``, Python's bytecode cache is on
(a private folder, warmed by one small untimed run against a second double) whatever
``PYTHONDONTWRITEBYTECODE`` says: an installed trustmh has its ``.pyc`` files. The CPU time is
the timed command's alone.

    python benchmarks/batch_bench.py [--delay 60] [--provider openai|anthropic]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from cost_dry_run_bench import write_workload

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root: tests.doubles
from tests.doubles.batch_double import BatchDouble


def judge_command(provider: str, api: BatchDouble, workload: Path, out: Path, batch: int) -> list[str]:
    endpoint = ["--base-url", api.base_url] if provider == "openai" else []
    return [sys.executable, "-m", "trustmh", "judge", "--responses", str(workload), "--judge-model",
            f"{provider}/judge-model", "-o", str(out), "--batch", str(batch), "--batch-poll", "1",
            "--no-progress", *endpoint]  # fmt: skip


def environment(provider: str, api: BatchDouble, cache: Path, pyc: Path) -> dict[str, str]:
    env = {**os.environ, "OPENAI_API_KEY": "sk-bench-batch", "TRUSTMH_CACHE_DIR": str(cache),
           "ANTHROPIC_API_KEY": "sk-ant-bench-batch", "ANTHROPIC_BASE_URL": api.anthropic_base_url,
           "PYTHONPYCACHEPREFIX": str(pyc)}  # fmt: skip
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def sample_cpu(process: subprocess.Popen[str]) -> list[tuple[float, float]]:
    """``(time.monotonic(), user + system CPU seconds)`` of ``process`` every 0.2 s until it ends
    (from /proc; empty where there is none). Its output is drained by the caller afterwards
    (the command prints a few lines: no pipe fills)."""
    samples: list[tuple[float, float]] = []
    stat = Path(f"/proc/{process.pid}/stat")
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    while process.poll() is None:
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            samples.append((time.monotonic(), (int(fields[11]) + int(fields[12])) / ticks))
        except (OSError, IndexError, ValueError):
            pass
        time.sleep(0.2)
    return samples


def cpu_at(samples: list[tuple[float, float]], moment: float) -> float:
    """The CPU used by ``moment``: the last sample at or before it (0 if none)."""
    return max((cpu for at, cpu in samples if at <= moment), default=0.0)


def warm_up(provider: str, workload: Path, folder: Path) -> None:
    """One untimed 10-request run: writes the bytecode cache of every module the command imports."""
    (folder / "warm").mkdir()
    with BatchDouble(processing_delay=0.0) as api:
        env = environment(provider, api, folder / "warm", folder / "pyc")
        command = judge_command(provider, api, workload, folder / "warm" / "judge.csv", 2000) + ["--limit", "1"]
        result = subprocess.run(command, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(result.stderr[-3000:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--delay", type=float, default=60.0)
    parser.add_argument("--batch", type=int, default=2000)
    parser.add_argument("--provider", choices=("openai", "anthropic"), default="openai")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        workload = folder / "responses.csv"
        write_workload(workload)
        warm_up(args.provider, workload, folder)
        with BatchDouble(processing_delay=args.delay) as api:
            out = folder / "judge.csv"
            env = environment(args.provider, api, folder, folder / "pyc")
            profile = os.environ.get("BATCH_BENCH_PROFILE")
            command = judge_command(args.provider, api, workload, out, args.batch)
            if profile:
                command[1:1] = ["-m", "cProfile", "-o", profile]
            cpu_before = children_cpu()
            started = time.monotonic()  # the double's clock
            process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            samples = sample_cpu(process)
            ended = time.monotonic()
            stderr = process.stderr.read() if process.stderr else ""
            cpu = children_cpu() - cpu_before
            if process.returncode != 0:
                raise SystemExit(stderr[-3000:])
            summary = json.loads(out.with_name(out.name + ".summary.json").read_text())
            state = api.state
            last_ready = max(batch["_ready_at"] for batch in state.batches.values())
            print(f"requests submitted {sum(state.submissions.values()):,} in {state.batches_created} batches; "
                  f"verdicts {summary['verdicts']}")  # fmt: skip
    wall = ended - started
    overhead = wall - args.delay
    before, after = last_ready - args.delay - started, ended - last_ready
    waiting = cpu_at(samples, last_ready) - cpu_at(samples, last_ready - args.delay)
    print(f"ideal (processing delay) {args.delay:.1f} s; wall {wall:.1f} s; "
          f"overhead {overhead:.2f} s = {100 * overhead / wall:.1f}% of the wall time "
          f"(until the last batch was accepted {before:.2f} s, after it ended {after:.2f} s); "
          f"CPU of the trustmh process {cpu:.2f} s = {100 * cpu / wall:.1f}% of the wall time, "
          f"of which ~{waiting:.2f} s while every batch was processing (polls; sampled every 0.2 s)")  # fmt: skip


if __name__ == "__main__":
    main()
