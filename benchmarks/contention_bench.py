"""How the embedded model's run behaves on a busy machine: a fixed subset of the default run,
idle and then beside CPU-bound competitor processes this benchmark starts and stops itself,
against the old configuration idle, in the same benchmark run (issue 26).

The subset (:data:`SUBSET`, 137 starter samples over six tasks of four pillars: short
classification answers, longer free-text answers, a robustness task's clean and perturbed
passes) runs as the real CLI in a subprocess (``python -m trustmh run TASKS --log-dir TMP
--no-report``), in three phases:

* ``new idle``: this tree, nothing else started by the benchmark;
* ``new busy``: this tree beside ``--competitors`` (default 1) competitor processes, each a
  single-threaded Python busy loop started just before the run and stopped just after it (each
  also ends by itself after ``--competitor-limit`` seconds, so none outlives the benchmark);
* ``old idle``: the source of ``--old-ref`` (default :data:`OLD_REF`, main before issue 26,
  extracted with ``git archive``) — the old threading (one llama.cpp thread per core, OpenMP's
  default spin-waiting) — idle; ``--old-busy`` adds ``old busy`` (can take ten times as long:
  it is what issue 26 is about; bounded by ``--old-busy-timeout``).

Each phase gets its own inspect and trustmh caches, so no phase is answered from another's. A
phase's CPU seconds are the run process's own (user + system, from ``os.wait4``), the
competitors' not included. Printed: per phase samples, wall, CPU, CPU / wall; the ratios busy /
idle (wall and CPU) and new idle / old idle (wall); and whether every sample's output is the
same in all phases (greedy decoding: thread counts and batching must not change a token).

Environment variables that select the embedded model's threading (``TRUSTMH_LLAMA_*``,
``OMP_*``, ``GOMP_*``) are removed from every phase's environment, so each runs its code's
defaults; ``--env KEY=VALUE`` sets one for the ``new`` phases (e.g. to try a setting).

``--default-run`` runs the whole default run instead of the subset: every task both trees run
by default (``trustmh run`` with no task named), named explicitly so both phases run the same
tasks (the old ref's default run lacks the tasks added since). ``--no-busy`` leaves the busy
phase out (an idle comparison only).

Targets (issue 26): busy wall <= 2.5 x idle, busy CPU <= 1.25 x idle, new idle wall <= 0.75 x
old idle with identical outputs. On 2 idle cores the default benchmark takes about 5-8 minutes,
``--default-run`` about 20.

    PYTHONPATH=src python benchmarks/contention_bench.py [--smoke | --default-run] [--no-busy]
        [--competitors N] [--old-busy] [--old-ref REF] [--keep-logs DIR] [--env KEY=VALUE ...]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from default_run_bench import SAMPLED_TASKS, RunResult, read_logs, source_tree

# Six tasks, 137 samples (their starter items): 21 + 10 + 20 + 20 + 42 + 24.
SUBSET = (
    "crisis_classification",
    "crisis_cssrs",
    "ethics_ethicmh",
    "privacy_psyleak",
    "robustness_crisis_classification",
    "safety_jailbreakmh",
)
MIN_SAMPLES = 100
# --smoke: two samples of two tasks, to check the benchmark works (its numbers mean nothing).
SMOKE_TASKS = ("crisis_classification", "privacy_psyleak")
SMOKE_LIMIT = 2
# main before issue 26: one llama.cpp thread per core, libgomp's default spin-waiting, one call at a time.
OLD_REF = "666b164"
BUSY_WALL_TARGET = 2.5
BUSY_CPU_TARGET = 1.25
IDLE_WALL_TARGET = 0.75
# Variables that choose the embedded model's threading; each phase runs its code's defaults.
THREADING_PREFIXES = ("TRUSTMH_LLAMA_", "OMP_", "GOMP_")
COMPETITOR = "import sys, time\nend = time.monotonic() + float(sys.argv[1])\nwhile time.monotonic() < end:\n    pass\n"


@dataclass
class Phase:
    name: str
    wall: float
    cpu: float  # the run process's user + system seconds
    competitor_cpu: float
    result: RunResult
    load: tuple[float, float] = (0.0, 0.0)  # 1-minute load average at the start and the end

    @property
    def samples(self) -> int:
        return self.result.total("samples")


def phase_environment(source: Path, scratch: Path, name: str, extra: dict[str, str]) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(THREADING_PREFIXES)}
    env.update(extra)
    env["PYTHONPATH"] = str(source)
    slug = name.replace(" ", "-")
    env["INSPECT_CACHE_DIR"] = str(scratch / f"inspect-cache-{slug}")
    env["TRUSTMH_CACHE_DIR"] = str(scratch / f"trustmh-cache-{slug}")
    return env


def start_competitors(count: int, limit: float) -> list[subprocess.Popen[bytes]]:
    return [subprocess.Popen([sys.executable, "-c", COMPETITOR, str(limit)]) for _ in range(count)]


def stop_competitors(competitors: list[subprocess.Popen[bytes]]) -> float:
    """Stop the competitors; their CPU seconds in all."""
    seconds = 0.0
    for competitor in competitors:
        competitor.terminate()
        _, _, usage = os.wait4(competitor.pid, 0)
        competitor.returncode = 0  # reaped here: Popen must not wait for it again
        seconds += usage.ru_utime + usage.ru_stime
    return seconds


def wait_with_usage(process: subprocess.Popen[bytes], timeout: float | None) -> tuple[int, float] | None:
    """Wait for ``process``; its exit status and CPU seconds (user + system), or None past ``timeout``."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            process.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
            return process.returncode, usage.ru_utime + usage.ru_stime
        if deadline is not None and time.monotonic() > deadline:
            return None
        time.sleep(0.2)


def run_phase(
    name: str,
    source: Path,
    tasks: list[str],
    extra_args: list[str],
    log_root: Path,
    scratch: Path,
    env_extra: dict[str, str],
    competitors: int,
    competitor_limit: float,
    timeout: float | None = None,
) -> Phase | None:
    """One ``trustmh run`` of ``tasks``; None when it ran past ``timeout`` (then it is stopped)."""
    slug = name.replace(" ", "-")
    log_dir = log_root / slug
    command = [sys.executable, "-m", "trustmh", "run", *tasks, "--log-dir", str(log_dir), "--no-report", *extra_args]
    env = phase_environment(source, scratch, name, env_extra)
    shown = " ".join(f"{key}={value}" for key, value in env_extra.items())
    print(f"[{name}] {source} {shown} {competitors} competitor(s) $ {' '.join(command[1:])}", flush=True)
    load_start = os.getloadavg()[0]
    rivals = start_competitors(competitors, competitor_limit)
    console = scratch / f"{slug}.out"
    with console.open("wb") as output:
        start = time.perf_counter()
        process = subprocess.Popen(command, env=env, stdout=output, stderr=subprocess.STDOUT)
        try:
            finished = wait_with_usage(process, timeout)
        finally:
            if process.returncode is None:
                process.kill()
                process.wait()
    wall = time.perf_counter() - start
    competitor_cpu = stop_competitors(rivals)
    if finished is None:
        print(f"[{name}] stopped after {wall:.0f} s (--old-busy-timeout)", flush=True)
        return None
    status, cpu = finished
    if status != 0:
        print(console.read_text(errors="replace")[-3000:])
        raise SystemExit(f"[{name}] trustmh run failed with exit code {status}")
    result = read_logs(name, log_dir, wall, with_floor=False)
    phase = Phase(name, wall, cpu, competitor_cpu, result, (load_start, os.getloadavg()[0]))
    print(f"[{name}] {phase.samples} samples, wall {wall:.1f} s, CPU {cpu:.1f} s", flush=True)
    return phase


def outputs_identical(reference: RunResult, other: RunResult) -> tuple[bool, int, int, list[tuple[str, str, int]]]:
    """Whether every greedy sample both runs asked the same prompt has the same output.

    Returns (identical, compared, prompt_changed, differing): samples whose prompt differs
    between the two runs (an old ref from before a prompt change) are counted apart, not
    compared: their outputs say nothing about threading or batching.
    """
    ours, theirs = reference.outputs, other.outputs
    greedy = {key for key in (*ours, *theirs) if key[0] not in SAMPLED_TASKS}
    shared = [key for key in greedy if key in ours and key in theirs]
    same_prompt = [key for key in shared if reference.prompts.get(key) == other.prompts.get(key)]
    differing = sorted(key for key in same_prompt if ours[key] != theirs[key])
    identical = not differing and len(shared) == len(greedy) and bool(same_prompt)
    return identical, len(same_prompt), len(shared) - len(same_prompt), differing


def print_report(phases: dict[str, Phase], competitors: int, smoke: bool) -> bool:
    """The table, the ratios and the checks; whether every check passed."""
    print(f"\n{os.cpu_count()} cores; {competitors} CPU-bound competitor(s) in the busy phases")
    print(f"{'phase':<10} {'samples':>7} {'wall s':>8} {'CPU s':>8} {'CPU/wall':>8} {'rivals CPU s':>12} {'load':>11}")
    for phase in phases.values():
        print(
            f"{phase.name:<10} {phase.samples:>7} {phase.wall:>8.1f} {phase.cpu:>8.1f} {phase.cpu / phase.wall:>8.2f} "
            f"{phase.competitor_cpu:>12.1f} {phase.load[0]:>5.2f}-{phase.load[1]:<5.2f}"
        )
    idle, checks = phases["new idle"], []
    if not smoke:
        checks.append((f"at least {MIN_SAMPLES} samples", idle.samples >= MIN_SAMPLES))
    for busy_name, idle_name in (("new busy", "new idle"), ("old busy", "old idle")):
        if busy_name in phases and idle_name in phases:
            busy, quiet = phases[busy_name], phases[idle_name]
            wall, cpu = busy.wall / quiet.wall, busy.cpu / quiet.cpu
            print(f"{busy_name} / {idle_name}: wall {wall:.2f}, CPU {cpu:.2f}")
            if busy_name == "new busy":
                checks.append((f"busy wall <= {BUSY_WALL_TARGET} x idle", wall <= BUSY_WALL_TARGET))
                checks.append((f"busy CPU <= {BUSY_CPU_TARGET} x idle", cpu <= BUSY_CPU_TARGET))
    if "old idle" in phases:
        ratio = idle.wall / phases["old idle"].wall
        print(f"new idle / old idle: wall {ratio:.2f}, CPU {idle.cpu / phases['old idle'].cpu:.2f}")
        checks.append((f"idle wall <= {IDLE_WALL_TARGET} x old", ratio <= IDLE_WALL_TARGET))
    for other in phases.values():
        if other is idle:
            continue
        identical, compared, changed, differing = outputs_identical(idle.result, other.result)
        print(
            f"outputs, new idle vs {other.name}: {compared} compared, {len(differing)} differing"
            f" ({changed} not compared: their prompt differs)"
        )
        for key in differing[:5]:
            print("  differs:", key)
        checks.append((f"outputs identical to {other.name}", identical))
    for label, passed in checks:
        print("PASS" if passed else "MISS", label)
    return all(passed for _, passed in checks)


# Prints the names of the tasks a plain `trustmh run` runs, from whichever layout the tree has.
DEFAULT_TASKS_SNIPPET = """
import trustmh._registry
try:
    from trustmh.run.task_catalog import all_tasks
except ImportError:  # before the package layout of issue 23
    from trustmh.task_catalog import all_tasks
print(" ".join(info.name for info in all_tasks() if info.in_default_run))
"""


def default_run_tasks(source: Path) -> list[str]:
    """The tasks the tree at ``source`` runs by default, in its own order."""
    env = dict(os.environ, PYTHONPATH=str(source))
    listed = subprocess.run([sys.executable, "-c", DEFAULT_TASKS_SNIPPET], env=env, capture_output=True, text=True)
    if listed.returncode != 0:
        raise SystemExit(f"cannot list the default tasks of {source}: {listed.stderr.strip()[-500:]}")
    return listed.stdout.split()


def common_default_tasks(new_source: Path, old_source: Path) -> list[str]:
    """The default-run tasks of both trees, in the new tree's order (printed with what is left out)."""
    new, old = default_run_tasks(new_source), set(default_run_tasks(old_source))
    common = [task for task in new if task in old]
    left_out = sorted(set(new) ^ old)
    print(
        f"default run: {len(common)} tasks in both trees" + (f"; left out: {', '.join(left_out)}" if left_out else "")
    )
    return common


def parse_env(pairs: list[str]) -> dict[str, str]:
    env = {}
    for pair in pairs:
        key, separator, value = pair.partition("=")
        if not separator or not key:
            raise SystemExit(f"--env {pair!r}: expected KEY=VALUE")
        env[key] = value
    return env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--smoke", action="store_true", help=f"{SMOKE_LIMIT} samples of {len(SMOKE_TASKS)} tasks")
    parser.add_argument("--competitors", type=int, default=1, help="CPU-bound processes in the busy phases")
    parser.add_argument("--competitor-limit", type=float, default=1800, help="a competitor ends itself after this")
    parser.add_argument("--old-ref", default=OLD_REF, help=f"git ref of the old configuration (default {OLD_REF})")
    parser.add_argument("--old-busy", action="store_true", help="also run the old configuration busy")
    parser.add_argument("--old-busy-timeout", type=float, default=900, help="stop 'old busy' after this many s")
    parser.add_argument("--keep-logs", type=Path, default=None, help="keep the logs here (one folder per phase)")
    parser.add_argument("--env", action="append", default=[], help="KEY=VALUE for the new phases (repeatable)")
    parser.add_argument("--default-run", action="store_true", help="the whole default run (tasks of both trees)")
    parser.add_argument("--no-busy", action="store_true", help="leave the 'new busy' phase out")
    args, extra = parser.parse_known_args()

    extra_args = [*extra, *(["--limit", str(SMOKE_LIMIT)] if args.smoke else [])]
    log_root = args.keep_logs or Path(tempfile.mkdtemp(prefix="trustmh-contention-"))
    scratch = Path(tempfile.mkdtemp(prefix="trustmh-contention-scratch-"))
    new_env = parse_env(args.env)
    new_source, old_source = source_tree(None, scratch), source_tree(args.old_ref, scratch)
    if args.default_run:
        tasks = common_default_tasks(new_source, old_source)
    else:
        tasks = list(SMOKE_TASKS if args.smoke else SUBSET)
    plan: list[tuple[str, Path, dict[str, str], int, float | None]] = [
        ("new idle", new_source, new_env, 0, None),
        *([] if args.no_busy else [("new busy", new_source, new_env, args.competitors, None)]),
        ("old idle", old_source, {}, 0, None),
    ]
    if args.old_busy:
        plan.append(("old busy", old_source, {}, args.competitors, args.old_busy_timeout))
    phases: dict[str, Phase] = {}
    for name, source, env, competitors, timeout in plan:
        phase = run_phase(
            name, source, tasks, extra_args, log_root, scratch, env, competitors, args.competitor_limit, timeout
        )
        if phase is not None:
            phases[name] = phase
    print_report(phases, args.competitors, args.smoke)


if __name__ == "__main__":
    main()
