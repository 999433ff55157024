"""The embedded model's own work in a run: every call of the run's logs replayed straight into
the model, with no task, solver, scorer or log around it.

If the replay takes about as long as the run, the run is bound by the model's work: no change to
how samples and calls are scheduled can shorten it much; only cheaper model work can.

* ``--run``: first the real ``trustmh run`` (the default run, ``--no-report``) into a scratch
  folder, timed as the contention benchmark times a phase (``contention_bench.run_phase``), so the replay is compared with a run on the same machine in the same hour (the
  machine's speed moves by 30% from hour to hour); otherwise ``LOG_DIR`` is replayed.
* **together** (the default mode): every call submitted at once, so the model batches as much as
  it can. A conversation's turns, which the run could only send one after another, are all
  available at the start here: no order the run could take gives the model more to batch.
* **serial**: one call after another in the run's order (nothing to batch).

Prompts and settings are the logged ones (attachments resolved); greedy answers are compared
with the run's. Each phase gets fresh inspect and trustmh caches, so nothing is answered from an
earlier phase. CPU seconds are the process's own (user + system).

    PYTHONPATH=src python benchmarks/model_work_bench.py --run            # ~15 min on 2 idle cores
    PYTHONPATH=src python benchmarks/model_work_bench.py LOG_DIR [--mode serial]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from contention_bench import run_phase
from default_run_bench import REPO


@dataclass(frozen=True)
class Call:
    at: float
    messages: list[Any]
    config: Any
    answer: str
    task: str = ""
    sample_id: str = ""


def logged_calls(log_dir: Path) -> list[Call]:
    """Every embedded-model call in the logs of ``log_dir``, in the order they were made."""
    from inspect_ai.log import list_eval_logs, read_eval_log

    calls = []
    for info in list_eval_logs(str(log_dir)):
        log = read_eval_log(info.name, resolve_attachments=True)
        for sample in log.samples or []:
            for event in sample.events:
                if event.event == "model" and event.model.startswith("trustmh/"):
                    at, answer = event.timestamp.timestamp(), event.output.completion
                    calls.append(Call(at, event.input, event.config, answer, log.eval.task, str(sample.id)))
    return sorted(calls, key=lambda call: call.at)


async def replay(calls: list[Call], mode: str) -> tuple[list[str], float, float]:
    from inspect_ai.model import get_model

    model = get_model("trustmh/smollm2")

    async def one(call: Call) -> str:
        # every call reaches the model's own queue at once: inspect's connection pool is not measured
        output = await model.generate(call.messages, config=call.config.model_copy(update={"max_connections": 10_000}))
        return output.completion

    started, before = time.monotonic(), resource.getrusage(resource.RUSAGE_SELF)
    if mode == "together":
        answers = list(await asyncio.gather(*(one(call) for call in calls)))
    else:
        answers = [await one(call) for call in calls]
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return answers, time.monotonic() - started, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("log_dir", nargs="?", type=Path, help="logs of a run to replay (or --run)")
    parser.add_argument("--run", action="store_true", help="run the default run first and replay its logs")
    parser.add_argument("--mode", choices=("together", "serial"), default="together")
    args = parser.parse_args()
    if args.log_dir is None and not args.run:
        parser.error("give LOG_DIR or --run")
    scratch = Path(tempfile.mkdtemp(prefix="trustmh-model-work-"))
    print(f"load average at the start: {os.getloadavg()}")
    if args.run:  # the contention benchmark's idle phase: fresh caches, the run's own CPU seconds
        run = run_phase("run", REPO / "src", [], [], scratch, scratch, {}, competitors=0, competitor_limit=0)
        assert run is not None  # no timeout given
        args.log_dir, wall = scratch / "run", run.wall
        print(f"trustmh run (default run): {run.wall:.1f} s wall, {run.cpu:.1f} s CPU")
    # fresh caches for the replay, set before inspect and trustmh read them
    os.environ["INSPECT_CACHE_DIR"] = str(scratch / "replay-ic")
    os.environ["TRUSTMH_CACHE_DIR"] = str(scratch / "replay-tc")
    calls = logged_calls(args.log_dir)
    answers, replay_wall, replay_cpu = asyncio.run(replay(calls, args.mode))
    greedy = [(answer, call.answer) for answer, call in zip(answers, calls, strict=True) if not call.config.temperature]
    same = sum(new == old for new, old in greedy)
    print(f"replay ({args.mode}): {len(calls)} calls, {replay_wall:.1f} s wall, {replay_cpu:.1f} s CPU")
    print(f"greedy answers the same as the run's: {same} of {len(greedy)}")
    if args.run:
        print(f"replay wall / run wall: {replay_wall / wall:.2f}")
    print(f"load average at the end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
