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

from trustmh.testing.batch_double import BatchDouble

sys.path.insert(0, str(Path(__file__).parent))
from cost_dry_run_bench import write_workload


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--delay", type=float, default=60.0)
    parser.add_argument("--batch", type=int, default=2000)
    parser.add_argument("--provider", choices=("openai", "anthropic"), default="openai")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, BatchDouble(processing_delay=args.delay) as api:
        workload = Path(folder) / "responses.csv"
        write_workload(workload)
        out = Path(folder) / "judge.csv"
        env = {**os.environ, "OPENAI_API_KEY": "sk-bench-batch", "TRUSTMH_CACHE_DIR": folder,
               "ANTHROPIC_API_KEY": "sk-ant-bench-batch", "ANTHROPIC_BASE_URL": api.anthropic_base_url}  # fmt: skip
        endpoint = ["--base-url", api.base_url] if args.provider == "openai" else []
        profile = (
            ["-m", "cProfile", "-o", os.environ["BATCH_BENCH_PROFILE"]] if "BATCH_BENCH_PROFILE" in os.environ else []
        )
        command = [sys.executable, *profile, "-m", "trustmh", "judge", "--responses", str(workload), "--judge-model",
                   f"{args.provider}/judge-model", "-o", str(out), "--batch", str(args.batch), "--batch-poll", "1",
                   "--no-progress", *endpoint]  # fmt: skip
        started = time.perf_counter()
        result = subprocess.run(command, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - started
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = usage.ru_utime + usage.ru_stime
        if result.returncode != 0:
            raise SystemExit(result.stderr[-3000:])
        summary = json.loads(out.with_name(out.name + ".summary.json").read_text())
        state = api.state
        print(f"requests submitted {sum(state.submissions.values()):,} in {state.batches_created} batches; "
              f"verdicts {summary['verdicts']}")  # fmt: skip
    overhead = wall - args.delay
    print(f"ideal (processing delay) {args.delay:.1f} s; wall {wall:.1f} s; "
          f"overhead {overhead:.1f} s = {100 * overhead / wall:.1f}% of the wall time; "
          f"CPU of the trustmh process {cpu:.1f} s = {100 * cpu / wall:.1f}% of the wall time")  # fmt: skip


if __name__ == "__main__":
    main()
