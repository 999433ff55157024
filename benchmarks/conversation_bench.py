"""Conversation machinery against the OpenAI double: wall time and CPU per conversation.

Workload: N scripted conversations (default 100) of T user turns (default 12), 100 ms
simulated latency, one connection per conversation (all run at once), the double in a
separate process (its CPU is not counted). Measured in the same run:

* ideal: T x latency (turns are serial within a conversation, conversations run in parallel);
* plain inspect loop: a solver that appends each scripted user turn and calls ``generate()``,
  a scorer counting turns, inspect's own defaults (``eval``);
* plain loop, trustmh run options: the same solver under ``trustmh.run.runner.eval_set_options``
  (log_buffer=1, no realtime buffer, retries, timeouts) — what our machinery runs inside;
* trustmh: ``trustmh.conversation.conversation`` + the ``crisis_psychosis_bench`` scorer (no
  judge) under the same options, with the per-turn cache on (the default: what makes resume skip
  completed turns) and off.

Each configuration runs ``--reps`` times, interleaved; the best wall time and the least CPU time
are reported (each the best of its reps). The goal: our conversation machinery adds < 10% CPU
per turn over the plain loop (CPU, not wall: on a shared machine wall time mostly measures the
other processes).

    PYTHONPATH=src python benchmarks/conversation_bench.py [--conversations 100] [--turns 12] [--reps 2]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

# `trustmh run`'s default display. inspect creates one display per process, so every configuration
# shares it; "none" would be inspect's rich display, which lays out each task's metrics table
# (~45 metrics for the psychosis scorer) at the end, a cost `trustmh run` does not pay.
DISPLAY = "log"


@dataclass
class Measure:
    name: str
    wall: float
    cpu: float
    conversations: int
    errors: int = 0


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime + children.ru_utime + children.ru_stime


def scripts(conversations: int, turns: int, tag: str) -> list[tuple[str, list[str]]]:
    """Unique user turns per run (``tag``) so no response comes from an earlier run's cache."""
    return [
        (f"c{c}", [f"[{tag}] conversation {c}, user turn {t}: I keep thinking about it." for t in range(1, turns + 1)])
        for c in range(conversations)
    ]


def _errors(logs: list) -> int:
    return sum(1 for log in logs for s in (log.samples or []) if s.error) + sum(
        1 for log in logs if log.status != "success"
    )


def _plain_task(items: list[tuple[str, list[str]]]):
    from inspect_ai import Task
    from inspect_ai.dataset import MemoryDataset, Sample
    from inspect_ai.model import ChatMessageUser, GenerateConfig
    from inspect_ai.scorer import Score, mean, scorer
    from inspect_ai.solver import solver

    @solver
    def scripted_loop():
        async def solve(state, generate):
            state.messages = []
            for text in state.metadata["user_turns"]:
                state.messages.append(ChatMessageUser(content=text))
                state = await generate(state)
            return state

        return solve

    @scorer(metrics=[mean()])
    def turns_scorer():
        async def score(state, target):
            return Score(value=sum(m.role == "assistant" for m in state.messages))

        return score

    return Task(
        dataset=MemoryDataset([Sample(id=i, input=t[0], metadata={"user_turns": t}) for i, t in items]),
        solver=scripted_loop(),
        scorer=turns_scorer(),
        config=GenerateConfig(max_tokens=160, temperature=0.0),
        name="plain_conversation_loop",
    )


def _ours_task(items: list[tuple[str, list[str]]], cache: bool):
    from inspect_ai import Task
    from inspect_ai.dataset import MemoryDataset, Sample
    from inspect_ai.model import GenerateConfig

    from trustmh.conversation import conversation
    from trustmh.pillars.crisis.psychosis_bench import psychosis_scorer
    from trustmh.tasking.declare import task_metadata

    samples = [
        Sample(id=i, input=t[0], metadata={"user_turns": t, "condition": "explicit", "harm": "isolation"})
        for i, t in items
    ]
    return Task(
        dataset=MemoryDataset(samples),
        solver=conversation(cache=cache),
        scorer=psychosis_scorer(),
        config=GenerateConfig(max_tokens=160, temperature=0.0),
        metadata=task_metadata("crisis", "starter", ("psychosis_bench",)),
        name=f"trustmh_conversation_{'cached' if cache else 'uncached'}",
    )


def run(kind: str, items: list[tuple[str, list[str]]], log_dir: str) -> Measure:
    from inspect_ai import eval, eval_set

    import trustmh._registry  # noqa: F401
    from trustmh.run.runner import eval_set_options

    connections = len(items)
    cpu0, t0 = cpu_seconds(), time.perf_counter()
    if kind == "plain":
        logs = eval(
            _plain_task(items),
            model="openai/test-model",
            model_args={"responses_api": False, "max_retries": 0},
            max_connections=connections,
            log_dir=log_dir,
            display=DISPLAY,
        )
        name = "plain inspect loop (inspect defaults)"
    else:
        task = _plain_task(items) if kind == "plain-options" else _ours_task(items, cache=(kind == "ours"))
        _, logs = eval_set(
            tasks=[task],
            log_dir=log_dir,
            **eval_set_options(["openai/test-model"], max_connections=connections, display=DISPLAY),
        )
        name = {
            "plain-options": "plain loop, trustmh run options",
            "ours": "trustmh conversation (turn cache on, default)",
            "ours-nocache": "trustmh conversation (turn cache off)",
        }[kind]
    return Measure(name, time.perf_counter() - t0, cpu_seconds() - cpu0, len(items), _errors(logs))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--conversations", type=int, default=100)
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--latency", type=float, default=0.1)
    parser.add_argument("--reps", type=int, default=2)
    args = parser.parse_args()

    scratch = tempfile.mkdtemp(prefix="trustmh-conv-bench-")
    os.environ["XDG_CACHE_HOME"] = os.path.join(scratch, "cache")  # inspect's cache starts empty
    os.environ["TRUSTMH_CACHE_DIR"] = os.path.join(scratch, "trustmh-cache")  # so does the turn store
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root: tests.doubles
    from tests.doubles.openai_double import OpenAIDouble

    kinds = ("plain", "plain-options", "ours", "ours-nocache")
    results: dict[str, list[Measure]] = {}
    with OpenAIDouble(latency=args.latency, in_process=False) as double:
        os.environ["OPENAI_BASE_URL"] = double.base_url
        os.environ["OPENAI_API_KEY"] = "sk-bench-not-a-key"
        for kind in kinds:  # warm-up: imports, provider and registry set-up outside the timings
            run(kind, scripts(4, 2, f"warm-{kind}"), os.path.join(scratch, f"warm-{kind}"))
        for rep in range(args.reps):
            order = kinds if rep % 2 == 0 else tuple(reversed(kinds))
            for kind in order:
                items = scripts(args.conversations, args.turns, f"{kind}-{rep}")
                measure = run(kind, items, os.path.join(scratch, f"{kind}-{rep}"))
                results.setdefault(kind, []).append(measure)
                print(
                    f"  rep {rep + 1}: {measure.name}: {measure.wall:.2f} s, CPU {measure.cpu:.2f} s, errors {measure.errors}",
                    flush=True,
                )
        served = sum(double.request_counts.values())
    shutil.rmtree(scratch, ignore_errors=True)

    ideal = args.turns * args.latency
    best = {kind: min(ms, key=lambda m: m.wall) for kind, ms in results.items()}
    least_cpu = {kind: min(m.cpu for m in ms) for kind, ms in results.items()}
    print(
        f"\n{args.conversations} conversations x {args.turns} turns, {args.latency * 1000:.0f} ms latency, "
        f"{args.conversations} connections, double in a separate process; {served} requests served"
    )
    print(f"{'configuration':<50} {'wall s':>8} {'x ideal':>8} {'CPU ms/turn':>12}")
    print(f"{'ideal (turns x latency)':<50} {ideal:>8.2f} {1.0:>8.2f} {'-':>12}")
    turns = args.conversations * args.turns
    for kind in kinds:
        m = best[kind]
        print(
            f"{m.name:<50} {m.wall:>8.2f} {m.wall / ideal:>8.2f} {1000 * least_cpu[kind] / turns:>12.2f}"
            + (f"  ({m.errors} errors)" if m.errors else "")
        )
    base = best["plain-options"]
    for kind in ("ours", "ours-nocache"):
        m = best[kind]
        print(
            f"{m.name} over the plain loop (same options): wall {(m.wall / base.wall - 1) * 100:+.1f}%  "
            f"CPU {(least_cpu[kind] / least_cpu['plain-options'] - 1) * 100:+.1f}%   (goal: CPU < +10%)"
        )
    plain = best["plain"]
    print(f"trustmh conversation over plain inspect defaults: wall {(best['ours'].wall / plain.wall - 1) * 100:+.1f}%")


if __name__ == "__main__":
    main()
