"""Times the default ``trustmh run`` (every registered task's starter items on the embedded
model) and shows where the time goes.

Runs the real CLI as a subprocess (``python -m trustmh run --log-dir TMP --no-report``),
then reads the logs: per task wall time, samples, prompt (prefill) and generated tokens.
The split of model time into prefill vs generation is estimated from the embedded
model's own prefill and decode rates, measured in the same run. Goal: <= 5 min on 2 cores.

    PYTHONPATH=src python benchmarks/default_run_bench.py [--keep-logs DIR] [extra trustmh run args]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

GOAL_SECONDS = 300


def model_rates() -> tuple[float, float]:
    """(prefill tokens/s, generated tokens/s) of the embedded model on this machine now."""
    from trustmh.models.llama import shared_llama

    llama = shared_llama()
    long_prompt = "Please read this counselling note carefully. " * 60
    llama.chat([{"role": "user", "content": "hi"}], 4, 0.0)  # warm
    start = time.perf_counter()
    prefill = llama.chat([{"role": "user", "content": long_prompt}], 1, 0.0)
    prefill_rate = prefill.input_tokens / (time.perf_counter() - start)
    start = time.perf_counter()
    decode = llama.chat([{"role": "user", "content": "Tell me a long story about a calm lake."}], 96, 0.0)
    elapsed = time.perf_counter() - start - decode.input_tokens / prefill_rate
    return prefill_rate, decode.output_tokens / max(elapsed, 1e-6)


def _seconds(start: str | None, end: str | None) -> float | None:
    if not start or not end:
        return None
    return (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--keep-logs", type=Path, default=None)
    args, extra = parser.parse_known_args()

    from inspect_ai.log import list_eval_logs, read_eval_log

    log_dir = args.keep_logs or Path(tempfile.mkdtemp(prefix="trustmh-default-run-"))
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1] / "src"))
    command = [sys.executable, "-m", "trustmh", "run", "--log-dir", str(log_dir), "--no-report", *extra]
    print("$", " ".join(command[1:]), flush=True)
    start = time.perf_counter()
    result = subprocess.run(command, env=env, capture_output=True, text=True)
    total = time.perf_counter() - start
    if result.returncode != 0:
        print(result.stdout[-3000:], result.stderr[-3000:])
        raise SystemExit(f"trustmh run failed with exit code {result.returncode}")

    rows = []
    for info in list_eval_logs(str(log_dir)):
        log = read_eval_log(info.name, header_only=True)
        usage = log.stats.model_usage
        input_tokens = sum(u.input_tokens for u in usage.values())
        output_tokens = sum(u.output_tokens for u in usage.values())
        samples = log.results.total_samples if log.results else 0
        rows.append(
            (
                log.eval.task.removeprefix("trustmh/"),
                samples,
                _seconds(log.stats.started_at, log.stats.completed_at),
                input_tokens,
                output_tokens,
            )
        )
    rows.sort()
    prefill_rate, decode_rate = model_rates()

    print(
        f"\ntrustmh run (default model trustmh/smollm2, {os.cpu_count()} cores): {total:.1f} s wall in all (goal <= {GOAL_SECONDS} s)"
    )
    print(f"embedded model now: prefill {prefill_rate:.0f} tok/s, generation {decode_rate:.1f} tok/s")
    header = f"{'task':<32} {'samples':>7} {'wall s':>7} {'prompt tok':>10} {'gen tok':>8} {'est. prefill s':>14} {'est. gen s':>10}"
    print(header)
    sums = [0, 0.0, 0, 0, 0.0, 0.0]
    for task, samples, wall, input_tokens, output_tokens in rows:
        prefill_s, gen_s = input_tokens / prefill_rate, output_tokens / decode_rate
        print(
            f"{task:<32} {samples:>7} {wall or 0:>7.1f} {input_tokens:>10} {output_tokens:>8} {prefill_s:>14.1f} {gen_s:>10.1f}"
        )
        for i, value in enumerate((samples, wall or 0, input_tokens, output_tokens, prefill_s, gen_s)):
            sums[i] += value
    print(
        f"{'all tasks':<32} {sums[0]:>7} {sums[1]:>7.1f} {sums[2]:>10} {sums[3]:>8} {sums[4]:>14.1f} {sums[5]:>10.1f}"
    )
    model_time = sums[4] + sums[5]
    print(
        f"model time estimated from the tokens at the rates above: {model_time:.1f} s "
        f"(prefill {sums[4]:.1f} s, generation {sums[5]:.1f} s) of {total:.1f} s wall; tasks run "
        "concurrently (their wall times overlap) and share the one embedded model; the rest is "
        "process start-up, model load, inspect and scoring"
    )
    print("PASS" if total <= GOAL_SECONDS else "OVER GOAL", f"({total:.1f} s vs {GOAL_SECONDS} s)")


if __name__ == "__main__":
    main()
