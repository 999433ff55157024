"""Does reuse ever change an answer? Every deterministic call of a run answered again, fresh.

A run answers its embedded-model calls with every kind of reuse on: stored KV states of earlier
prompts, the live context's prefix, calls decoded together, identical requests answered once.
This benchmark answers each of the run's deterministic calls (temperature 0, or a fixed seed)
again on a model with all reuse off, its context cleared before every call, one call at a time:
what a new process answering that call alone would say. It prints how many answers are
identical, and the tasks and sample ids of those that are not.

* ``--run``: first the real default run (``trustmh run --no-report``) into a scratch folder, timed
  as the contention benchmark times a phase; otherwise ``LOG_DIR`` is read.
* ``--limit N``: only the first N calls (a quick check; the figure that counts is the whole run's).

    PYTHONPATH=src python benchmarks/reuse_identity_bench.py --run     # ~20 min on 2 idle cores
    PYTHONPATH=src python benchmarks/reuse_identity_bench.py LOG_DIR
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from contention_bench import run_phase
from default_run_bench import REPO
from model_work_bench import Call, logged_calls


def deterministic(call: Call) -> bool:
    return not call.config.temperature or call.config.seed is not None


def answer_fresh(calls: list[Call]) -> list[str]:
    """Each call on a model with no stored states, no batching and an empty context."""
    from trustmh.models.llama import EmbeddedLlama, smollm2_path
    from trustmh.models.providers import fresh_answer

    model = EmbeddedLlama(smollm2_path(), cache_mb=0, batch=0)
    try:
        return [fresh_answer(model, call.messages, call.config) for call in calls]
    finally:
        model.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("log_dir", nargs="?", type=Path, help="logs of a run (or --run)")
    parser.add_argument("--run", action="store_true", help="run the default run first and read its logs")
    parser.add_argument("--limit", type=int, default=None, help="only the first N deterministic calls")
    args = parser.parse_args()
    if args.log_dir is None and not args.run:
        parser.error("give LOG_DIR or --run")
    scratch = Path(tempfile.mkdtemp(prefix="trustmh-reuse-identity-"))
    print(f"load average at the start: {os.getloadavg()}")
    if args.run:
        run = run_phase("run", REPO / "src", [], [], scratch, scratch, {}, competitors=0, competitor_limit=0)
        assert run is not None  # no timeout given
        args.log_dir = scratch / "run"
        print(f"trustmh run (default run): {run.wall:.1f} s wall, {run.cpu:.1f} s CPU")
    calls = [call for call in logged_calls(args.log_dir) if deterministic(call)][: args.limit]
    started = time.monotonic()
    fresh = answer_fresh(calls)
    print(f"answered fresh: {len(calls)} calls in {time.monotonic() - started:.1f} s")
    differ = [call for call, answer in zip(calls, fresh, strict=True) if answer != call.answer]
    print(f"identical: {len(calls) - len(differ)} / {len(calls)}")
    for call in differ:
        print(f"  differs: {call.task} {call.sample_id}")
    print(f"load average at the end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
