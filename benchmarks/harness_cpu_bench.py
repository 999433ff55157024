"""CPU of the harness: a real ``trustmh run`` of one task against plain inspect, per sample and
at start-up, on the API path.

Both run as subprocesses against the loopback OpenAI double (``tests.doubles.openai_double``,
in its own process, so its CPU is not counted); a run's CPU is its process's user + system time
from ``os.wait4``, start-up included. Each side runs at two sizes (``--sizes N,M``): the
marginal CPU per sample is the slope between them, the fixed start-up the intercept. Sizes and
sides are interleaved, the order alternating, ``--reps`` times; the median of each point is
kept, and the load average is printed beside every run (a shared machine: ratios count).

* trustmh: ``python -m trustmh run TASK -m openai/test-model --limit N --no-report`` (plus
  ``--data-dir``, ``--source``, ``--judge`` as given), exactly what a user runs;
* inspect: a plain ``Task`` (``generate()`` + ``match()``, inspect's defaults) over the very
  prompts the trustmh run sent (read from its first log), ``inspect_ai.eval`` in a fresh
  interpreter.

Targets: trustmh's marginal CPU per sample <= 1.25 x inspect's, its fixed start-up <= 1 s more.
``--profile DIR`` runs trustmh once more under cProfile and writes ``DIR/trustmh.prof`` and the
top functions (``DIR/top.txt``). ``--scores FILE`` writes the scores of every trustmh log (to
compare two trees: same input, same scores). By default the installed trustmh runs, as a user
runs it; ``--src DIR`` runs another source tree's.

    python benchmarks/harness_cpu_bench.py privacy_psyleak \\
        --data-dir ../shared/data --source benchmark --sizes 100,300 --reps 3
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MODEL = "openai/test-model"
MARGINAL_RATIO_TARGET = 1.25
FIXED_EXTRA_TARGET = 1.0

# Run in a fresh interpreter: a plain inspect task over the prompts in a JSON file.
INSPECT_SCRIPT = """
import json, sys
from inspect_ai import Task, eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import match
from inspect_ai.solver import generate
import inspect_ai._util.entrypoints as entrypoints
entrypoints._inspect_ai_eps_loaded_all = True  # inspect alone: no plugin (trustmh's registry) loaded
prompts, connections, log_dir = json.load(open(sys.argv[1])), int(sys.argv[2]), sys.argv[3]
if len(sys.argv) > 4:  # --inspect-gc trustmh: the collector settings of trustmh.core.collector
    import gc
    gc.set_threshold(int(sys.argv[4]), *gc.get_threshold()[1:])
    gc.collect()
    gc.freeze()
task = Task(dataset=MemoryDataset([Sample(id=i, input=p, target="no") for i, p in enumerate(prompts)]),
            solver=generate(), scorer=match(), name="plain_inspect")
logs = eval(task, model="openai/test-model", model_args={"responses_api": False},
            max_connections=connections, log_dir=log_dir, display="none")
sys.exit(0 if all(log.status == "success" for log in logs) else 1)
"""


@dataclass
class Run:
    kind: str
    size: int
    samples: int
    cpu: float
    wall: float
    load: float


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(CPU seconds of the child, wall seconds); raises if it fails."""
    start = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert process.stderr is not None
    error = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command[:6])}... exited {process.returncode}:\n{error.decode()[-2000:]}")
    return usage.ru_utime + usage.ru_stime, time.perf_counter() - start


def trustmh_command(args: argparse.Namespace, size: int, log_dir: str) -> list[str]:
    command = ["-m", "trustmh", "run", args.task, "-m", MODEL, "--limit", str(size), "--log-dir", log_dir]
    command += ["--no-report", "--max-connections", str(args.connections), "--display", "none"]
    for flag in ("data_dir", "source"):
        if getattr(args, flag):
            command += [f"--{flag.replace('_', '-')}", str(getattr(args, flag))]
    for judge in args.judge:
        command += ["--judge", judge]
    return command


def logs_of(log_dir: str) -> list:
    from inspect_ai.log import list_eval_logs, read_eval_log

    return [read_eval_log(info) for info in list_eval_logs(log_dir)]


def sample_count(log_dir: str) -> int:
    return sum(len(log.samples or []) for log in logs_of(log_dir))


def scores_of(log_dir: str) -> dict[str, object]:
    """Every metric and every sample's score value of a run's logs, keyed by task."""
    scores: dict[str, object] = {}
    for log in logs_of(log_dir):
        metrics = {
            s.name: {k: m.value for k, m in s.metrics.items()} for s in (log.results.scores if log.results else [])
        }
        samples = {str(s.id): {k: v.value for k, v in (s.scores or {}).items()} for s in log.samples or []}
        # keyed without the registry prefix, which depends on how the tree was put on the path
        scores[log.eval.task.removeprefix("trustmh/")] = {"metrics": metrics, "samples": samples}
    return scores


def prompts_of(log_dir: str) -> list[str]:
    """The user text of every sample the run sent, for inspect's task of the same size."""
    prompts = []
    for log in logs_of(log_dir):
        for sample in log.samples or []:
            prompts.append(sample.input if isinstance(sample.input, str) else sample.input[-1].text)
    return prompts


def measure(
    kind: str, size: int, args: argparse.Namespace, env: dict[str, str], scratch: str, prompts: list[str]
) -> Run:
    log_dir = tempfile.mkdtemp(prefix=f"{kind}-{size}-", dir=scratch)
    load = os.getloadavg()[0]
    if kind == "trustmh":
        cpu, wall = timed([sys.executable, *trustmh_command(args, size, log_dir)], env)
        samples = sample_count(log_dir)
    else:
        prompt_file = os.path.join(log_dir, "prompts.json")
        Path(prompt_file).write_text(json.dumps(prompts[:size]))
        command = [sys.executable, "-c", INSPECT_SCRIPT, prompt_file, str(args.connections), log_dir]
        if args.inspect_gc == "trustmh":
            from trustmh.core.collector import YOUNG_THRESHOLD

            command.append(str(YOUNG_THRESHOLD))
        cpu, wall = timed(command, env)
        samples = min(size, len(prompts))
    print(
        f"  {kind:<8} size {size:>5}: {samples} samples, CPU {cpu:6.2f} s, wall {wall:6.2f} s, load {load:.1f}",
        flush=True,
    )
    return Run(kind, size, samples, cpu, wall, load)


def fit(runs: list[Run], sizes: list[int]) -> tuple[float, float, list[float]]:
    """(marginal CPU s/sample, fixed CPU s, median CPU at each size) from two sizes' medians."""
    medians, counts = [], []
    for size in sizes:
        at = [r for r in runs if r.size == size]
        medians.append(statistics.median(r.cpu for r in at))
        counts.append(at[0].samples)
    marginal = (medians[1] - medians[0]) / (counts[1] - counts[0])
    return marginal, medians[0] - marginal * counts[0], medians


def profile(args: argparse.Namespace, env: dict[str, str], scratch: str) -> None:
    import pstats

    out = Path(args.profile)
    out.mkdir(parents=True, exist_ok=True)
    prof = out / "trustmh.prof"
    command = [
        sys.executable,
        "-m",
        "cProfile",
        "-o",
        str(prof),
        *trustmh_command(args, max(args.sizes), tempfile.mkdtemp(dir=scratch)),
    ]
    timed(command, env)
    with (out / "top.txt").open("w") as handle:
        stats = pstats.Stats(str(prof), stream=handle)
        stats.sort_stats("tottime").print_stats(40)
        stats.sort_stats("cumulative").print_stats(60)
    print(f"profile: {prof}, top functions in {out / 'top.txt'}")


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("task", help="a trustmh task, e.g. privacy_psyleak")
    parser.add_argument("--data-dir")
    parser.add_argument("--source", help="trustmh run --source (e.g. benchmark)")
    parser.add_argument("--judge", action="append", default=[], help="a judge model (e.g. openai/test-model)")
    parser.add_argument("--sizes", default="100,300", help="two sample counts, N,M (M > N)")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument(
        "--src",
        help="run another source tree's trustmh (put first on PYTHONPATH; default: the installed trustmh, as users run it)",
    )
    parser.add_argument(
        "--inspect-gc",
        choices=("default", "trustmh"),
        default="default",
        help="the plain inspect run's garbage-collector settings: Python's defaults (what a plain "
        "inspect script gets), or trustmh's (trustmh.core.collector: the harness's own cost, like for like)",
    )
    parser.add_argument("--profile", help="write a cProfile of one trustmh run and its top functions here")
    parser.add_argument("--scores", help="write the trustmh logs' scores (JSON) here")
    args = parser.parse_args()
    args.sizes = sorted(int(s) for s in args.sizes.split(","))
    if len(args.sizes) != 2 or args.sizes[0] == args.sizes[1]:
        parser.error("--sizes takes two different sample counts")
    return args


def main() -> None:
    args = parse()
    sys.path.insert(0, str(REPO))  # tests.doubles
    from tests.doubles.openai_double import OpenAIDouble

    scratch = tempfile.mkdtemp(prefix="trustmh-harness-bench-")
    with OpenAIDouble(latency=args.latency, in_process=False) as double:
        env = {**os.environ, "OPENAI_BASE_URL": double.base_url, "OPENAI_API_KEY": "sk-bench-not-a-key"}
        if args.src:
            # A source tree first on the path also puts its build metadata (src/*.egg-info) first,
            # and inspect then scans every installed distribution to find the task's (0.2-0.7 s per
            # run that an installed trustmh does not pay): compare trees with one another, not
            # with the installed figure.
            env["PYTHONPATH"] = args.src
        else:
            env.pop("PYTHONPATH", None)
        env["INSPECT_CACHE_DIR"] = env["TRUSTMH_CACHE_DIR"] = scratch
        measure("trustmh", max(args.sizes), args, env, scratch, [])  # warm-up, and its prompts
        prompts = prompts_of(str(next(Path(scratch).glob("trustmh-*"))))
        if args.scores:
            Path(args.scores).write_text(
                json.dumps(scores_of(str(next(Path(scratch).glob("trustmh-*")))), indent=1, sort_keys=True, default=str)
            )
        runs: list[Run] = []
        for rep in range(args.reps):
            kinds = ("trustmh", "inspect") if rep % 2 else ("inspect", "trustmh")
            for size in args.sizes if rep % 2 == 0 else reversed(args.sizes):
                runs += [measure(kind, size, args, env, scratch, prompts) for kind in kinds]
        if args.profile:
            profile(args, env, scratch)
    shutil.rmtree(scratch, ignore_errors=True)
    report(args, runs)


def report(args: argparse.Namespace, runs: list[Run]) -> None:
    loads = [r.load for r in runs]
    print(
        f"\n{args.task}: sizes {args.sizes}, {args.reps} reps, {args.latency * 1000:.0f} ms latency, {args.connections} connections; load average {min(loads):.1f}-{max(loads):.1f}; "
        f"inspect's garbage collector: {args.inspect_gc}"
    )
    print(f"{'side':<8} {'CPU at sizes (median s)':>26} {'marginal ms/sample':>19} {'fixed s':>8}")
    fits = {}
    for kind in ("inspect", "trustmh"):
        marginal, fixed, medians = fit([r for r in runs if r.kind == kind], args.sizes)
        fits[kind] = (marginal, fixed)
        print(f"{kind:<8} {' / '.join(f'{m:.2f}' for m in medians):>26} {marginal * 1000:>19.2f} {fixed:>8.2f}")
    ratio = fits["trustmh"][0] / fits["inspect"][0]
    extra = fits["trustmh"][1] - fits["inspect"][1]
    print(f"trustmh / inspect marginal CPU per sample: {ratio:.2f} (target <= {MARGINAL_RATIO_TARGET})")
    print(f"trustmh - inspect fixed start-up CPU: {extra:+.2f} s (target <= {FIXED_EXTRA_TARGET:+.1f} s)")


if __name__ == "__main__":
    main()
