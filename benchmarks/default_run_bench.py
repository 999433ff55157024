"""Times the default ``trustmh run`` (every registered task's starter items on the embedded
model) as it was before issue 17 and as it is now, in the same benchmark run.

Runs the real CLI as a subprocess twice (``python -m trustmh run --log-dir TMP --no-report``):

* ``before``: the source tree of ``--before-ref`` (default :data:`BEFORE_REF`, main before the
  prompt layouts and queue order of issue 17, extracted with ``git archive``) with
  ``TRUSTMH_LLAMA_CACHE_MB=0``: no KV states kept, no answers reused, calls served first come
  first served — the configuration before issue 17 on today's tasks. ``--before-ref none``
  runs this tree with reuse off instead (same prompts: then the outputs are compared too);
* ``after``: this tree with the default reuse.

Each configuration gets its own inspect model cache (``INSPECT_CACHE_DIR``) and trustmh cache
(``TRUSTMH_CACHE_DIR``): the conversation tasks keep their turns in one of them (inspect's cache
before issue 14's turn store, the turn store since), and a shared one would answer the second
run's turns. Both
report ``input_tokens_cache_read`` (the prompt tokens the model did not prefill), so the logs
give, per configuration: samples, prompt tokens, tokens really prefilled (input - cache read),
generated tokens and wall time; then the ratios. A per-task table for ``after`` shows where the
remaining prefill is, beside its **floor**: what any reuse must prefill for the same prompts
(:mod:`prefill_floor`). The **wall floor** of ``after`` — its floor prefilled and its answers
generated at the best rates this machine reaches, measured in the same benchmark run — says
what wall ratio is reachable at all. ``--logs DIR`` only reads an existing run's logs and
prints the same totals (e.g. for a plain ``trustmh run --log-dir DIR``), its wall time being
the span of its logs (first task started to last completed: the process's start-up left out);
``--before-logs DIR`` adds a ``before`` run's logs read the same way, for the ratios.

``--compare-batch`` runs this tree twice instead: ``after`` (greedy calls decoded together, the
default) and ``unbatched`` (``TRUSTMH_LLAMA_BATCH=0``: one call at a time), and prints the wall
ratio of the two and whether every greedy sample's output is the same (issue 26).

Targets: tokens really prefilled by the default run <= 1.05 x the prefill floor of its own prompts
(issue 26; issue 17 set a fixed 25,000, which the prompts' floor alone came to exceed: a ratio to the
floor stays meaningful as prompts change), wall <= 0.4 x before (issue 17), at least 300 samples.

    PYTHONPATH=src python benchmarks/default_run_bench.py [--only after] [--before-ref REF|none]
        [--keep-logs DIR] [--logs DIR [--before-logs DIR]] [--compare-batch] [extra trustmh run args]
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

from prefill_floor import describe_rates, measure_rates, prefill_floor, read_calls, wall_floor

# Tokens really prefilled may exceed the run's own prefill floor (prefill_floor.py) by at most 5%.
PREFILL_FLOOR_RATIO = 1.05
WALL_RATIO_TARGET = 0.4
MIN_SAMPLES = 300
# TRUSTMH_LLAMA_CACHE_MB (None: the default). "after" runs first: it pays the cold start (model
# file not yet in the page cache), and on a busy machine its numbers come first.
CONFIGURATIONS = {"after": None, "before": "0"}
# Their user side is a model sampling at temperature 0.7 (trustmh.conversation.solver.USER_CONFIG):
# two runs' conversations differ whatever the reuse, so their outputs are not compared.
SAMPLED_TASKS = ("crisis_simulated_risk", "safety_crescendo", "dialogue_mindeval")
# main just before the second wave on issue 17 (prompt layouts, clean-pass settings, queue order).
BEFORE_REF = "113a23e"
REPO = Path(__file__).resolve().parents[1]


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
    # What each sample was asked (its non-assistant messages), so outputs are compared only
    # where two runs sent the same prompt (a ref from before a prompt change differs by design).
    prompts: dict[tuple[str, str, int], str] = field(default_factory=dict)
    # Tokens any reuse must prefill for this run's prompts, by task (prefill_floor.py).
    floor: dict[str, int] = field(default_factory=dict)

    def total(self, attribute: str) -> int:
        return sum(getattr(row, attribute) for row in self.rows)


def _seconds(start: str | None, end: str | None) -> float:
    if not start or not end:
        return 0.0
    return (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()


def source_tree(ref: str | None, scratch: Path) -> Path:
    """The ``src`` folder to run: this tree's, or ``ref``'s extracted from git."""
    if ref is None:
        return REPO / "src"
    target = scratch / f"src-{ref}"
    if not target.is_dir():
        target.mkdir(parents=True)
        archive = subprocess.run(["git", "-C", str(REPO), "archive", ref, "src"], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    return target / "src"


def run_configuration(
    name: str,
    cache_mb: str | None,
    source: Path,
    log_dir: Path,
    scratch: Path,
    extra: list[str],
    batch: str | None = None,
) -> RunResult:
    env = dict(os.environ, PYTHONPATH=str(source))
    for variable, value in (("TRUSTMH_LLAMA_CACHE_MB", cache_mb), ("TRUSTMH_LLAMA_BATCH", batch)):
        env.pop(variable, None)
        if value is not None:
            env[variable] = value
    env["INSPECT_CACHE_DIR"] = str(scratch / f"inspect-cache-{name}")
    env["TRUSTMH_CACHE_DIR"] = str(scratch / f"trustmh-cache-{name}")
    command = [sys.executable, "-m", "trustmh", "run", "--log-dir", str(log_dir), "--no-report", *extra]
    settings = f"TRUSTMH_LLAMA_CACHE_MB={cache_mb or 'default'} TRUSTMH_LLAMA_BATCH={batch or 'default'}"
    print(f"[{name}] {source} {settings} $", " ".join(command[1:]), flush=True)
    start = time.perf_counter()
    completed = subprocess.run(command, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if completed.returncode != 0:
        print(completed.stdout[-3000:], completed.stderr[-3000:])
        raise SystemExit(f"[{name}] trustmh run failed with exit code {completed.returncode}")
    result = read_logs(name, log_dir, wall)
    print(f"[{name}] {result.wall:.1f} s", flush=True)
    return result


def log_span(log_dir: Path) -> float:
    """Seconds from the first task's start to the last one's end in a run's logs."""
    from inspect_ai.log import list_eval_logs, read_eval_log

    stats = [read_eval_log(info.name, header_only=True).stats for info in list_eval_logs(str(log_dir))]
    starts = [datetime.fromisoformat(s.started_at) for s in stats if s.started_at]
    ends = [datetime.fromisoformat(s.completed_at) for s in stats if s.completed_at]
    return (max(ends) - min(starts)).total_seconds() if starts and ends else 0.0


def read_logs(name: str, log_dir: Path, wall: float, with_floor: bool = True) -> RunResult:
    """Samples, tokens and outputs per task from the logs of one run. Usage is summed over the
    samples in the log, so an unfinished run's log (samples flushed as they finish) counts too."""
    from inspect_ai.log import list_eval_logs, read_eval_log

    result = RunResult(name, wall)
    for info in list_eval_logs(str(log_dir)):
        log = read_eval_log(info.name)
        task = log.eval.task.removeprefix("trustmh/")
        samples = log.samples or []
        usage = [u for sample in samples for u in sample.model_usage.values()]
        result.rows.append(
            TaskRow(
                task,
                len(samples),
                _seconds(log.stats.started_at, log.stats.completed_at),
                sum(u.input_tokens for u in usage),
                sum(u.input_tokens_cache_read or 0 for u in usage),
                sum(u.output_tokens for u in usage),
            )
        )
        for sample in samples:
            key = (task, str(sample.id), sample.epoch)
            result.outputs[key] = sample.output.completion
            result.prompts[key] = "\n\x00".join(m.text for m in sample.messages if m.role != "assistant")
    result.rows.sort(key=lambda row: row.task)
    if with_floor:
        result.floor = prefill_floor(read_calls(log_dir))
    return result


def print_tasks(result: RunResult) -> None:
    print(f"\nper task ({result.name}):")
    print(
        f"{'task':<34} {'samples':>7} {'wall s':>7} {'prompt tok':>10} {'cache read':>10} {'prefilled':>9} "
        f"{'floor':>6} {'gen tok':>8}"
    )
    for row in result.rows:
        print(
            f"{row.task:<34} {row.samples:>7} {row.wall:>7.1f} {row.input_tokens:>10} {row.cache_read:>10} "
            f"{row.prefilled:>9} {result.floor.get(row.task, 0):>6} {row.output_tokens:>8}"
        )


def print_comparison(results: list[RunResult], same_prompts: bool) -> None:
    print(f"\ntrustmh run (default model trustmh/smollm2, {os.cpu_count()} cores, load average {os.getloadavg()}):")
    print(f"{'configuration':<14} {'samples':>7} {'prompt tok':>10} {'prefilled':>9} {'gen tok':>8} {'wall s':>8}")
    for result in results:
        print(
            f"{result.name:<14} {result.total('samples'):>7} {result.total('input_tokens'):>10} "
            f"{result.total('prefilled'):>9} {result.total('output_tokens'):>8} {result.wall:>8.1f}"
        )
    by_name = {result.name: result for result in results}
    after = by_name.get("after", results[-1])
    floor = sum(after.floor.values())
    print(f"prefilled / prefill floor: {after.total('prefilled')} / {floor} = {prefill_over_floor(after):.3f}")
    checks = [
        (
            f"prefilled <= {PREFILL_FLOOR_RATIO} x floor over >= {MIN_SAMPLES} samples",
            prefill_over_floor(after) <= PREFILL_FLOOR_RATIO and after.total("samples") >= MIN_SAMPLES,
        ),
    ]
    if len(results) == 2:
        before = by_name["before"]
        wall_ratio = after.wall / before.wall
        prefill_ratio = after.total("prefilled") / max(1, before.total("prefilled"))
        print(f"ratio after/before: wall {wall_ratio:.2f}, tokens really prefilled {prefill_ratio:.2f}")
        checks.append((f"wall ratio <= {WALL_RATIO_TARGET}", wall_ratio <= WALL_RATIO_TARGET))
    if len(results) == 2 and same_prompts:
        checks.append(("outputs identical (greedy tasks)", same_outputs(by_name["before"], after)))
    for label, passed in checks:
        print("PASS" if passed else "MISS", label)
    print_floors(after, by_name.get("before"))


def same_outputs(reference: RunResult, other: RunResult) -> bool:
    """Whether every greedy sample of ``reference`` has the same output in ``other`` (printed)."""
    shared = {key for key in set(reference.outputs) & set(other.outputs) if key[0] not in SAMPLED_TASKS}
    differing = sorted(key for key in shared if reference.outputs[key] != other.outputs[key])
    print(f"sample outputs compared: {len(shared)}, differing: {len(differing)}")
    for key in differing[:10]:
        print("  differs:", key)
    compared = [key for key in reference.outputs if key[0] not in SAMPLED_TASKS]
    return not differing and len(shared) == len(compared)


def print_batch_comparison(together: RunResult, unbatched: RunResult) -> None:
    """Decoding greedy calls together against one at a time, measured in the same benchmark run."""
    print(f"\nload average {os.getloadavg()}")
    print(f"{'configuration':<14} {'samples':>7} {'prefilled':>9} {'gen tok':>8} {'wall s':>8}")
    for result in (together, unbatched):
        print(
            f"{result.name:<14} {result.total('samples'):>7} {result.total('prefilled'):>9} "
            f"{result.total('output_tokens'):>8} {result.wall:>8.1f}"
        )
    print(f"wall together / one at a time: {together.wall / unbatched.wall:.3f}")
    print("PASS" if same_outputs(unbatched, together) else "MISS", "outputs identical (greedy tasks)")


def prefill_over_floor(result: RunResult) -> float:
    """Tokens really prefilled over the floor of the same run's prompts (inf when nothing had to be)."""
    floor = sum(result.floor.values())
    return result.total("prefilled") / floor if floor else (0.0 if result.total("prefilled") == 0 else float("inf"))


def print_floors(after: RunResult, before: RunResult | None) -> None:
    """Whether the targets are reachable at all for this run's prompts and outputs, on this machine."""
    floor, prefilled, generated = sum(after.floor.values()), after.total("prefilled"), after.total("output_tokens")
    print(
        f"\nprefill floor of '{after.name}' (any reuse, any order, unlimited store): {floor} tokens; "
        f"prefilled {prefilled} (floor + {prefilled - floor})"
    )
    rates = measure_rates()
    print(describe_rates(rates))
    seconds = wall_floor(floor, generated, rates)
    line = f"wall floor of '{after.name}': {floor} / {rates.prefill:.0f} + {generated} / {rates.best_decode:.0f}"
    print(f"{line} = {seconds:.0f} s" + (f" = {seconds / before.wall:.2f} x before" if before else ""))
    # The prefill target is relative to the floor, so always reachable; the wall target is not.
    verdicts: list[tuple[str, bool]] = []
    if before is not None:
        verdicts.append(
            (f"wall ratio <= {WALL_RATIO_TARGET} for these outputs", seconds <= WALL_RATIO_TARGET * before.wall)
        )
    for label, reachable in verdicts:
        print("REACHABLE" if reachable else "UNREACHABLE", label)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--keep-logs", type=Path, default=None, help="keep the logs here (one folder per configuration)"
    )
    parser.add_argument("--only", choices=sorted(CONFIGURATIONS), default=None, help="run one configuration")
    parser.add_argument(
        "--before-ref",
        default=BEFORE_REF,
        help=f"git ref whose src/ runs as 'before' (default {BEFORE_REF}); 'none': this tree with reuse off",
    )
    parser.add_argument("--logs", type=Path, default=None, help="only print the totals of an existing run's logs")
    parser.add_argument("--before-logs", type=Path, default=None, help="with --logs: the 'before' run's logs")
    parser.add_argument(
        "--compare-batch", action="store_true", help="this tree decoding calls together vs TRUSTMH_LLAMA_BATCH=0"
    )
    args, extra = parser.parse_known_args()

    if args.logs is not None:
        results = [read_logs("after", args.logs, wall=log_span(args.logs))]
        if args.before_logs is not None:
            results.append(read_logs("before", args.before_logs, wall=log_span(args.before_logs)))
        print_tasks(results[0])
        print_comparison(results, same_prompts=False)
        return
    root = args.keep_logs or Path(tempfile.mkdtemp(prefix="trustmh-default-run-"))
    scratch = Path(tempfile.mkdtemp(prefix="trustmh-default-run-scratch-"))
    if args.compare_batch:
        this_tree = source_tree(None, scratch)
        together, unbatched = (
            run_configuration(name, None, this_tree, root / name, scratch, extra, batch)
            for name, batch in (("after", None), ("unbatched", "0"))
        )
        print_tasks(together)
        print_batch_comparison(together, unbatched)
        return
    before_ref = None if args.before_ref == "none" else args.before_ref
    sources = {"before": source_tree(before_ref, scratch), "after": source_tree(None, scratch)}
    names = [args.only] if args.only else list(CONFIGURATIONS)
    results = [
        run_configuration(name, CONFIGURATIONS[name], sources[name], root / name, scratch, extra) for name in names
    ]
    print_tasks(results[0])
    print_comparison(results, same_prompts=before_ref is None)


if __name__ == "__main__":
    main()
