"""Two single-threaded llama.cpp contexts against one two-threaded context, on SmolLM2.

The embedded model decodes with one context whose graph is split over the cores: its threads
meet at a barrier after every node, hundreds of times per token, and on a 135M model each node is
small. Two contexts of one thread each, answering different calls side by side, never wait for
each other. This measures whether that is faster, and checks the answers are the same.

Same calls both ways, greedy, one at a time per context (no batching), repeated ``--reps`` times:

* **one context x 2 threads**: the calls one after another;
* **two contexts x 1 thread**: the calls split between two Python threads, each with its own
  context on the same GGUF (llama.cpp releases the GIL while it computes).

    PYTHONPATH=src python benchmarks/two_contexts_bench.py [--reps 2] [--max-tokens 96]
"""

from __future__ import annotations

import argparse
import os
import threading
import time
from typing import Any

# the embedded model's spin setting (trustmh.models.threads), before libgomp loads
os.environ.setdefault("GOMP_SPINCOUNT", "10000")

WORRIES = [
    ("anxious", "exams"),
    ("lonely", "moving to a new city"),
    ("angry", "a friend who let them down"),
    ("sad", "a breakup"),
    ("tired", "long hours at work"),
    ("worried", "money"),
]


def prompts() -> list[str]:
    padding = "Please be kind, specific and brief. " * 20  # a few hundred tokens of prompt, like the run's
    return [f"Write a short paragraph of advice for someone who feels {w} about {t}. {padding}" for w, t in WORRIES]


def answer_all(llm: Any, calls: list[str], max_tokens: int, answers: dict[str, str]) -> None:
    for prompt in calls:
        answers[prompt] = llm.create_completion(prompt, max_tokens=max_tokens, temperature=0)["choices"][0]["text"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reps", type=int, default=2)
    parser.add_argument("--max-tokens", type=int, default=96)
    args = parser.parse_args()
    from llama_cpp import Llama

    from trustmh.models.llama import smollm2_path

    def load(threads: int) -> Any:
        path = str(smollm2_path())
        return Llama(model_path=path, n_ctx=2048, n_threads=threads, n_threads_batch=threads, verbose=False)

    calls = prompts()
    shared, left, right = load(2), load(1), load(1)
    answer_all(shared, calls[:1], 8, {})  # warm-up
    print(f"load average at the start: {os.getloadavg()}")
    for rep in range(1, args.reps + 1):
        one: dict[str, str] = {}
        started = time.perf_counter()
        answer_all(shared, calls, args.max_tokens, one)
        one_wall = time.perf_counter() - started
        two: dict[str, str] = {}
        workers = [
            threading.Thread(target=answer_all, args=(llm, calls[i::2], args.max_tokens, two))
            for i, llm in enumerate((left, right))
        ]
        started = time.perf_counter()
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        two_wall = time.perf_counter() - started
        same = sum(one[p] == two[p] for p in calls)
        print(
            f"rep {rep}: one context x 2 threads {one_wall:.1f} s; two contexts x 1 thread {two_wall:.1f} s;"
            f" ratio {two_wall / one_wall:.2f}; same answers {same} of {len(calls)}"
        )
    print(f"load average at the end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
