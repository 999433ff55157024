"""The least a run could cost on the embedded model, whatever it reuses: how many of its prompt
tokens any reuse scheme must prefill, and the least wall time its tokens take on this machine.

**Prefill floor.** The KV entry of a prompt's token ``i`` depends on the whole prefix
``prompt[:i+1]``, so it can only come from a cache if an earlier computation had exactly that
prefix: another prompt sharing it, or a generation whose prompt + answer passes through it (a
conversation's next turn holds the previous answer). Put every call's prompt in a token trie,
mark the nodes an answer's generation computed, and the floor is the number of prompt nodes not
marked:

    floor = |{p[:i+1] : p a prompt, 0 <= i < len(p)} - {(q + a)[:j+1] : q, a a call's prompt
            and answer, len(q) <= j < len(q + a)}|

It holds for an unlimited store, any serving order and identical requests answered once (an
identical prompt adds no node). Answers count by their text's tokens, as the next prompt holds
them. Prompts are rebuilt from the logs (messages formatted with the GGUF's chat template and
tokenized exactly as the model does: :func:`trustmh.models.reuse.templated_tokens`).

**Wall floor.** The run must at least prefill ``floor`` tokens and generate its answers'
tokens, so ``wall >= floor / prefill rate + generated / decode rate``, with the best rates
measured here: a 512-token prefill batch, and decoding at a short (100-token) context, one
sequence alone or many at once in one batch (llama.cpp's batched decode of independent
sequences, which trustmh does not use: it is the fastest this machine decodes at all).

    PYTHONPATH=src python benchmarks/prefill_floor.py LOG_DIR   (also run by default_run_bench.py)
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

RATE_CONTEXT = 100  # tokens in context while decoding is timed: short contexts decode fastest
PARALLEL_SEQUENCES = (1, 8, 16)


@dataclass(frozen=True)
class Call:
    task: str
    prompt: list[int]
    answer: list[int]


@dataclass(frozen=True)
class Rates:
    prefill: float  # tokens/s, one 512-token batch
    decode: dict[int, float]  # tokens/s over all sequences, by sequences decoded at once

    @property
    def best_decode(self) -> float:
        return max(self.decode.values())


def read_calls(log_dir: Path) -> list[Call]:
    """Every embedded-model call in a run's logs, in the order they were made, as tokens."""
    from inspect_ai.log import list_eval_logs, read_eval_log

    from trustmh.models.llama import quiet_llama_logs, smollm2_path
    from trustmh.models.reuse import chat_formatter, templated_tokens
    from trustmh.models.threads import import_llama_cpp

    with quiet_llama_logs():
        vocabulary = import_llama_cpp().Llama(model_path=str(smollm2_path()), vocab_only=True, verbose=False)
    formatter = chat_formatter(vocabulary)
    timed: list[tuple[Any, Call]] = []
    for info in list_eval_logs(str(log_dir)):
        log = read_eval_log(info.name, resolve_attachments=True)
        task = log.eval.task.removeprefix("trustmh/")
        for sample in log.samples or []:
            for event in sample.events:
                if event.event != "model":
                    continue
                messages = [{"role": message.role, "content": message.text} for message in event.input]
                answer = vocabulary.tokenize((event.output.completion or "").encode(), add_bos=False)
                call = Call(task, templated_tokens(vocabulary, formatter, messages), list(answer))
                timed.append((event.timestamp, call))
    vocabulary.close()
    return [call for _, call in sorted(timed, key=lambda pair: pair[0])]


def prefill_floor(calls: Iterable[Call]) -> dict[str, int]:
    """Tokens that must be prefilled, by task (see the module docstring). A node shared by two
    tasks counts for the first one that needs it in ``calls``' order; the total does not depend
    on the order."""
    calls = list(calls)
    root: dict[int, Any] = {}
    generated: set[int] = set()  # id() of nodes an answer's generation computes
    for call in calls:
        node = root
        for position, token in enumerate(call.prompt + call.answer):
            node = node.setdefault(token, {})
            if position >= len(call.prompt):
                generated.add(id(node))
    counted: set[int] = set()
    floor: dict[str, int] = defaultdict(int)
    for call in calls:
        node = root
        floor[call.task] += 0
        for token in call.prompt:
            node = node[token]
            if id(node) not in generated and id(node) not in counted:
                counted.add(id(node))
                floor[call.task] += 1
    return dict(floor)


def measure_rates(threads: int | None = None) -> Rates:
    """The embedded model's best prefill and decode rates on this machine (see module docstring)."""
    from trustmh.models.llama import quiet_llama_logs

    with quiet_llama_logs():
        return _measure_rates(threads)


def _measure_rates(threads: int | None) -> Rates:
    import numpy as np

    from trustmh.models.llama import smollm2_path
    from trustmh.models.threads import import_llama_cpp, llama_threads

    low = import_llama_cpp()
    counts = llama_threads()
    low.llama_backend_init()
    model = low.llama_model_load_from_file(str(smollm2_path()).encode(), low.llama_model_default_params())
    tokens = np.random.default_rng(0).integers(100, 40_000, 512)
    decode: dict[int, float] = {}
    prefill = 0.0
    for sequences in PARALLEL_SEQUENCES:
        params = low.llama_context_default_params()
        params.n_ctx, params.n_batch, params.n_ubatch = 1024 * sequences, 512, 512
        params.n_seq_max, params.kv_unified = sequences, False  # one KV stream per sequence
        params.n_threads, params.n_threads_batch = threads or counts.generation, threads or counts.prompt
        context = low.llama_init_from_model(model, params)
        batch = low.llama_batch_init(512, 0, sequences)

        def run(entries: list[tuple[int, int, int]], batch: Any = batch, context: Any = context) -> None:
            batch.n_tokens = len(entries)
            for index, (token, position, sequence) in enumerate(entries):
                batch.token[index], batch.pos[index], batch.n_seq_id[index] = token, position, 1
                batch.seq_id[index][0], batch.logits[index] = sequence, 1
            if low.llama_decode(context, batch) != 0:
                raise RuntimeError("llama_decode failed")

        start = time.perf_counter()
        run([(int(token), position, 0) for position, token in enumerate(tokens)])
        prefill = max(prefill, len(tokens) / (time.perf_counter() - start))
        low.llama_memory_clear(low.llama_get_memory(context), True)
        for sequence in range(sequences):
            run([(int(tokens[position]), position, sequence) for position in range(RATE_CONTEXT)])
        steps = 48
        start = time.perf_counter()
        for step in range(steps):
            run([(1000 + step, RATE_CONTEXT + step, sequence) for sequence in range(sequences)])
        decode[sequences] = steps * sequences / (time.perf_counter() - start)
        low.llama_batch_free(batch)
        low.llama_free(context)
    low.llama_model_free(model)
    return Rates(prefill, decode)


def wall_floor(prefill_tokens: int, generated_tokens: int, rates: Rates) -> float:
    """Seconds a run needs at least: its floor prefilled and its answers generated at the best rates."""
    return prefill_tokens / rates.prefill + generated_tokens / rates.best_decode


def describe_rates(rates: Rates) -> str:
    decode = ", ".join(f"{rate:.0f} with {n} sequence{'s' if n > 1 else ''}" for n, rate in rates.decode.items())
    return (
        f"best rates measured now: prefill {rates.prefill:.0f} tok/s (512-token batch); "
        f"decode at a {RATE_CONTEXT}-token context, tok/s over all sequences: {decode}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("logs", type=Path, help="a run's log folder (e.g. trustmh run --log-dir DIR)")
    args = parser.parse_args()
    calls = read_calls(args.logs)
    floor = prefill_floor(calls)
    print(f"{len(calls)} calls, {sum(len(c.prompt) for c in calls)} prompt tokens")
    for task, tokens in sorted(floor.items()):
        print(f"  {task:<34} {tokens:>7}")
    print(f"prefill floor: {sum(floor.values())} tokens")


if __name__ == "__main__":
    main()
