"""Times the default ``trustmh run`` (every registered task's starter items on the embedded
model) without and with the embedded model's reuse, in the same benchmark run.

Runs the real CLI as a subprocess twice (``python -m trustmh run --log-dir TMP --no-report``):
``before`` with ``TRUSTMH_LLAMA_CACHE_MB=0`` (no KV states kept, no answers reused: the
configuration before prefix reuse) and ``after`` with the default cache. Both report
``input_tokens_cache_read`` (the prompt tokens the model did not prefill), so the logs give,
per configuration: samples, prompt tokens, tokens really prefilled (input - cache read),
generated tokens and wall time; then the ratios, and how many sample outputs differ between
the two runs (at temperature 0 they should not). A per-task table for ``after`` shows where
the remaining prefill is.

Targets (issue 17): tokens really prefilled by the default run <= 25,000, wall <= 0.4 x before,
at least 300 samples.

    PYTHONPATH=src python benchmarks/default_run_bench.py [--only after] [--keep-logs DIR] [extra trustmh run args]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

PREFILL_TARGET = 25_000
WALL_RATIO_TARGET = 0.4
MIN_SAMPLES = 300
CONFIGURATIONS = {"before": "0", "after": None}  # TRUSTMH_LLAMA_CACHE_MB (None: the default)


@dataclass
class TaskRow:
    task: str
    samples: int
    wall: float
    input_tokens: int
    cache_read: int
    output_tokens: int

    @property
    def prefilled(self) -> int:
        return self.input_tokens - self.cache_read


@dataclass
class RunResult:
    name: str
    wall: float
    rows: list[TaskRow] = field(default_factory=list)
    outputs: dict[tuple[str, str, int], str] = field(default_factory=dict)

    def total(self, attribute: str) -> int:
        return sum(getattr(row, attribute) for row in self.rows)


def _seconds(start: str | None, end: str | None) -> float:
    if not start or not end:
        return 0.0
    return (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()


def run_configuration(name: str, cache_mb: str | None, log_dir: Path, extra: list[str]) -> RunResult:
    from inspect_ai.log import list_eval_logs, read_eval_log

    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1] / "src"))
    env.pop("TRUSTMH_LLAMA_CACHE_MB", None)
    # A fresh trustmh cache per configuration: else the conversation tasks of the second run replay
    # every turn from the first run's turn store and ask the model nothing.
    env["TRUSTMH_CACHE_DIR"] = tempfile.mkdtemp(prefix=f"trustmh-cache-{name}-")
    if cache_mb is not None:
        env["TRUSTMH_LLAMA_CACHE_MB"] = cache_mb
    command = [sys.executable, "-m", "trustmh", "run", "--log-dir", str(log_dir), "--no-report", *extra]
    print(f"[{name}] TRUSTMH_LLAMA_CACHE_MB={cache_mb or 'default'} $", " ".join(command[1:]), flush=True)
    start = time.perf_counter()
    completed = subprocess.run(command, env=env, capture_output=True, text=True)
    result = RunResult(name, time.perf_counter() - start)
    if completed.returncode != 0:
        print(completed.stdout[-3000:], completed.stderr[-3000:])
        raise SystemExit(f"[{name}] trustmh run failed with exit code {completed.returncode}")
    for info in list_eval_logs(str(log_dir)):
        log = read_eval_log(info.name)
        task = log.eval.task.removeprefix("trustmh/")
        usage = log.stats.model_usage.values()
        result.rows.append(
            TaskRow(
                task,
                log.results.total_samples if log.results else 0,
                _seconds(log.stats.started_at, log.stats.completed_at),
                sum(u.input_tokens for u in usage),
                sum(u.input_tokens_cache_read or 0 for u in usage),
                sum(u.output_tokens for u in usage),
            )
        )
        for sample in log.samples or []:
            result.outputs[(task, str(sample.id), sample.epoch)] = sample.output.completion
    result.rows.sort(key=lambda row: row.task)
    print(f"[{name}] {result.wall:.1f} s", flush=True)
    return result


def print_tasks(result: RunResult) -> None:
    print(f"\nper task ({result.name}):")
    print(
        f"{'task':<34} {'samples':>7} {'wall s':>7} {'prompt tok':>10} {'cache read':>10} {'prefilled':>9} {'gen tok':>8}"
    )
    for row in result.rows:
        print(
            f"{row.task:<34} {row.samples:>7} {row.wall:>7.1f} {row.input_tokens:>10} {row.cache_read:>10} "
            f"{row.prefilled:>9} {row.output_tokens:>8}"
        )


def print_comparison(results: list[RunResult]) -> None:
    print(f"\ntrustmh run (default model trustmh/smollm2, {os.cpu_count()} cores, load average {os.getloadavg()}):")
    print(f"{'configuration':<14} {'samples':>7} {'prompt tok':>10} {'prefilled':>9} {'gen tok':>8} {'wall s':>8}")
    for result in results:
        print(
            f"{result.name:<14} {result.total('samples'):>7} {result.total('input_tokens'):>10} "
            f"{result.total('prefilled'):>9} {result.total('output_tokens'):>8} {result.wall:>8.1f}"
        )
    after = results[-1]
    checks = [
        (f"prefilled <= {PREFILL_TARGET}", after.total("prefilled") <= PREFILL_TARGET),
        (f"samples >= {MIN_SAMPLES}", after.total("samples") >= MIN_SAMPLES),
    ]
    if len(results) == 2:
        before = results[0]
        wall_ratio = after.wall / before.wall
        prefill_ratio = after.total("prefilled") / max(1, before.total("prefilled"))
        print(f"ratio after/before: wall {wall_ratio:.2f}, tokens really prefilled {prefill_ratio:.2f}")
        checks.append((f"wall ratio <= {WALL_RATIO_TARGET}", wall_ratio <= WALL_RATIO_TARGET))
        shared = set(before.outputs) & set(after.outputs)
        differing = sorted(key for key in shared if before.outputs[key] != after.outputs[key])
        print(f"sample outputs compared: {len(shared)}, differing: {len(differing)}")
        for key in differing[:10]:
            print("  differs:", key)
        checks.append(("outputs identical", not differing and len(shared) == len(before.outputs)))
    for label, passed in checks:
        print("PASS" if passed else "MISS", label)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--keep-logs", type=Path, default=None, help="keep the logs here (one folder per configuration)"
    )
    parser.add_argument("--only", choices=sorted(CONFIGURATIONS), default=None, help="run one configuration")
    args, extra = parser.parse_known_args()

    root = args.keep_logs or Path(tempfile.mkdtemp(prefix="trustmh-default-run-"))
    names = [args.only] if args.only else list(CONFIGURATIONS)
    results = [run_configuration(name, CONFIGURATIONS[name], root / name, extra) for name in names]
    print_tasks(results[-1])
    print_comparison(results)


if __name__ == "__main__":
    main()
