"""``trustmh run`` on 1,000 replayed samples in one log: what writing finished samples to the log costs.

inspect writes an ``.eval`` log by rewriting it whole: each flush closes the zip (writing its
central directory), copies the file to the log folder and reopens it (parsing the directory
again), so a flush costs time in proportion to the samples already written and flushing after
each of n samples costs n^2 / 2 sample-writes in total.

Workload: PsyLeak's benchmark items answered from gpt-4o-mini's released outputs
(``../shared/data/replay_trustmh``, the replay provider: no model is called, no judge),
``--limit 250 --epochs 4``: 1,000 samples in one log. Each setting runs the real command
(``trustmh run ... --no-report``) in its own child process with only the flush setting changed;
settings are interleaved over ``--reps`` repetitions and the run with the least CPU is kept:

* ``every sample``: ``log_buffer=1``, inspect's stale flush unchanged (``trustmh run`` before
  issue 28's change): the baseline;
* ``trustmh default``: what ``trustmh run`` uses now (``trustmh.run.runner.DEFAULT_LOG_BUFFER``
  samples or ``LOG_FLUSH_SECONDS``, whichever comes first);
* ``inspect default``: ``log_buffer`` left to inspect and its 60 s stale flush (for 1,000
  samples: every 50).

CPU time (user + system of the child, imports included) is the number to compare: on a shared
machine wall time mostly measures the other processes.

    PYTHONPATH=src python benchmarks/run_flush_bench.py [--data-dir ../shared/data] [--reps 2]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LIMIT, EPOCHS = 250, 4
# The child patches only the flush setting, then runs the CLI exactly as a user would.
CHILD = """
import sys
import trustmh.run.runner as runner
setting = sys.argv[1]
if setting == "every":
    runner.DEFAULT_LOG_BUFFER = 1
elif setting == "inspect":
    runner.DEFAULT_LOG_BUFFER, runner.LOG_FLUSH_SECONDS = None, 60.0
from trustmh.cli.main import app
app(sys.argv[2:], prog_name="trustmh")
"""
SETTINGS = {"every": "every sample (log_buffer=1)", "trustmh": "trustmh default", "inspect": "inspect default"}


@dataclass
class Measure:
    setting: str
    wall: float
    cpu: float
    load: float


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(setting: str, data_dir: Path, folder: Path) -> Measure:
    log_dir = Path(tempfile.mkdtemp(prefix=f"{setting}-", dir=folder))
    command = [
        *("run", "privacy_psyleak", "--data-dir", str(data_dir)),
        *("-m", "trustmh/replay/gpt-4o-mini", "-M", f"responses={data_dir / 'replay_trustmh'}"),
        *("--limit", str(LIMIT), "--epochs", str(EPOCHS), "--log-dir", str(log_dir), "--no-report"),
    ]
    env = {**os.environ, "PYTHONPATH": str(REPO / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    load = os.getloadavg()[0]
    cpu_before, started = children_cpu(), time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CHILD, setting, *command], capture_output=True, text=True, env=env)
    wall, cpu = time.perf_counter() - started, children_cpu() - cpu_before
    if done.returncode != 0:
        raise SystemExit(f"{setting}: exit {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    if f"{LIMIT * EPOCHS} samples" not in done.stdout.replace(",", ""):
        raise SystemExit(f"{setting}: expected {LIMIT * EPOCHS} samples\n{done.stdout[-3000:]}")
    return Measure(setting, wall, cpu, load)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_data = Path(os.environ.get("TRUSTMH_TEST_DATA", REPO.parent / "shared" / "data"))
    parser.add_argument("--data-dir", type=Path, default=default_data)
    parser.add_argument("--reps", type=int, default=2)
    args = parser.parse_args()
    samples = LIMIT * EPOCHS
    best: dict[str, Measure] = {}
    with tempfile.TemporaryDirectory(prefix="trustmh-flush-bench-") as folder:
        for rep in range(args.reps):
            for setting in SETTINGS:
                measure = run_once(setting, args.data_dir.resolve(), Path(folder))
                print(
                    f"rep {rep + 1} {SETTINGS[setting]}: {measure.wall:.1f} s wall, {measure.cpu:.1f} s CPU "
                    f"(load {measure.load:.2f})",
                    flush=True,
                )
                if setting not in best or measure.cpu < best[setting].cpu:
                    best[setting] = measure
    baseline = best["every"]
    print(f"\n{samples:,} samples in one log, best of {args.reps} (least CPU):")
    print("| setting | wall s | CPU s | CPU ms/sample | CPU vs every sample | load (1 min) |")
    print("|---|---|---|---|---|---|")
    for setting, label in SETTINGS.items():
        m = best[setting]
        print(
            f"| {label} | {m.wall:.1f} | {m.cpu:.1f} | {1000 * m.cpu / samples:.1f} | "
            f"{m.cpu / baseline.cpu:.2f} | {m.load:.2f} |"
        )


if __name__ == "__main__":
    main()
