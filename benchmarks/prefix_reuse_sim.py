"""Counts the prompt tokens of the default ``trustmh run`` and how many of them the embedded
model would really prefill, without running the model: deterministic and quick (~1-2 min),
where a real run on a busy 2-core machine takes from minutes to hours.

Every registered task's starter items go through inspect exactly as in ``trustmh run``
(``runner.eval_set_options``), but the model is a stand-in that formats each request with
the GGUF's own chat template, tokenizes it with the GGUF's tokenizer and replays what
:mod:`trustmh.models.reuse` does: the live context's prefix (llama.cpp's own reuse), stored
KV states (the model's own state store, :func:`~trustmh.models.reuse.state_cache`, holding
stand-in states of the model's KV bytes per token) and answers to identical deterministic
requests. Calls wait in the
model's own :class:`~trustmh.models.scheduling.PrefixQueue` and one simulated worker serves
them one at a time (first come first served when reuse is off, as the model), sleeping in
proportion to the tokens it would prefill, so tasks interleave roughly as in a real run. It
answers every request with one canned reply. Prompt token totals equal a real run's except
in the conversation tasks (their later prompts hold the model's replies); the prefilled
count is an estimate of a real run's (the interleaving differs).

    PYTHONPATH=src python benchmarks/prefix_reuse_sim.py [--cache-mb 0,512] [--per-task] [--order fifo]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
from types import SimpleNamespace
from typing import Any

CANNED_REPLY = "I hear you. That sounds hard; can you tell me more about what happened? Answer: A"
SECONDS_PER_PREFILLED_TOKEN = 0.0005


class ReuseSimulator:
    """Token-level model of the embedded model's reuse (see module docstring)."""

    def __init__(self) -> None:
        from llama_cpp import Llama

        from trustmh.models.llama import quiet_llama_logs, smollm2_path
        from trustmh.models.reuse import chat_formatter

        with quiet_llama_logs():
            self.tokenizer = Llama(model_path=str(smollm2_path()), vocab_only=True, verbose=False)
        meta = self.tokenizer.metadata
        self.formatter = chat_formatter(self.tokenizer)
        head_dim = int(meta["llama.embedding_length"]) // int(meta["llama.attention.head_count"])
        # K and V, f16, per layer and KV head: what a stored state costs per token.
        self.kv_bytes_per_token = (
            int(meta["llama.block_count"]) * 2 * int(meta["llama.attention.head_count_kv"]) * head_dim * 2
        )
        self.reply_tokens = self.tokenizer.tokenize(CANNED_REPLY.encode(), add_bos=False)
        self.reset(0)

    def reset(self, cache_mb: int) -> None:
        from trustmh.models.reuse import state_cache

        # The embedded model's own state store, holding stand-in states of the real size.
        self.cache = state_cache(cache_mb)
        self.live: list[int] = []
        self.answers: set[str] = set()
        self.per_task: dict[str, list[int]] = {}

    def stored(self) -> list[tuple[int, ...]]:
        return list(self.cache.cache_state) if self.cache is not None else []

    def prompt_tokens(self, messages: list[dict[str, str]]) -> list[int]:
        from trustmh.models.reuse import templated_tokens

        return templated_tokens(self.tokenizer, self.formatter, messages)

    def answered(self, messages: list[dict[str, str]], settings: list[Any]) -> bool:
        """Whether the answer cache holds this request (deterministic ones only, as the model's)."""
        return self.cache is not None and json.dumps([messages, settings]) in self.answers

    def prefill(self, task: str, messages: list[dict[str, str]], settings: list[Any]) -> tuple[int, int]:
        """(prompt tokens, tokens prefilled) of one request, updating the simulated caches."""
        prompt = self.prompt_tokens(messages)
        key = json.dumps([messages, settings])
        row = self.per_task.setdefault(task, [0, 0, 0])
        row[0] += 1
        row[1] += len(prompt)
        if self.answered(messages, settings):
            return len(prompt), 0
        shared = common_prefix(self.live, prompt)
        if self.cache is not None:
            try:  # as Llama._create_completion: the longest stored match, restored if it beats the live context
                shared = max(shared, common_prefix(self.cache[prompt].input_ids, prompt))
            except KeyError:
                pass
        # llama.cpp decodes at least one prompt token again to get fresh logits.
        reused = shared - 1 if shared == len(prompt) else shared
        prefilled = len(prompt) - max(reused, 0)
        row[2] += prefilled
        self.live = prompt + self.reply_tokens
        if self.cache is not None:
            self.cache[self.live] = SimpleNamespace(
                input_ids=self.live, llama_state_size=len(self.live) * self.kv_bytes_per_token
            )
            temperature, seed = settings[1], settings[3]
            if not temperature or seed is not None:  # the answer cache keeps deterministic requests only
                self.answers.add(key)
        return len(prompt), prefilled


def common_prefix(a: Any, b: Any) -> int:
    length = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        length += 1
    return length


class SerialWorker:
    """The embedded model's one worker: calls wait in a :class:`PrefixQueue` and are served one
    at a time, in the order the real model serves them (FIFO when reuse is off)."""

    def __init__(self, simulator: ReuseSimulator) -> None:
        self.simulator = simulator
        self.reset(prefix_order=True)

    def reset(self, prefix_order: bool) -> None:
        from trustmh.models.scheduling import MAX_SKIPS, PrefixQueue

        # max_skips=0: every waiting call is "due" at once, so the oldest is served (FIFO).
        self.queue: PrefixQueue[tuple[str, list[dict[str, str]], list[Any], asyncio.Future[Any]]] = PrefixQueue(
            max_skips=MAX_SKIPS if prefix_order else 0
        )
        self.wakeup: asyncio.Event | None = None
        self.longest_queue = 0

    async def submit(self, task: str, messages: list[dict[str, str]], settings: list[Any]) -> tuple[int, int]:
        if self.wakeup is None:  # first call in this eval_set's event loop
            self.wakeup = asyncio.Event()
            asyncio.get_running_loop().create_task(self.serve(self.wakeup))
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.queue.put((task, messages, settings, future), self.simulator.prompt_tokens(messages))
        self.wakeup.set()
        return await future

    async def serve(self, wakeup: asyncio.Event) -> None:
        simulator = self.simulator
        while True:
            await wakeup.wait()
            wakeup.clear()
            while len(self.queue):
                self.longest_queue = max(self.longest_queue, len(self.queue))
                prefixes = [simulator.live, *simulator.stored()]
                task, messages, settings, future = self.queue.take(
                    prefixes, lambda item: simulator.answered(item[1], item[2])
                )
                prompt, prefilled = simulator.prefill(task, messages, settings)
                if prefilled:
                    await asyncio.sleep(0.01 + prefilled * SECONDS_PER_PREFILLED_TOKEN)
                future.set_result((prompt, prefilled))


def register_model(simulator: ReuseSimulator, worker: SerialWorker) -> None:
    from inspect_ai.model import GenerateConfig, ModelAPI, ModelOutput, ModelUsage, modelapi

    from trustmh.core.inspect_compat import sample_active
    from trustmh.models.providers import _as_chat

    @modelapi(name="reuse-sim")
    class ReuseSimModel(ModelAPI):
        def __init__(self, model_name: str, base_url: str | None = None, api_key: str | None = None, **kwargs: Any):
            super().__init__(model_name=model_name, base_url=base_url, api_key=api_key, config=GenerateConfig())

        def max_connections(self) -> int:
            return 1  # as the embedded provider

        async def generate(self, input: Any, tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
            active = sample_active()
            task = active.task.removeprefix("trustmh/") if active is not None else "?"
            settings = [config.max_tokens, config.temperature, config.top_p, config.seed, config.stop_seqs]
            prompt, prefilled = await worker.submit(task, _as_chat(input), settings)
            output = ModelOutput.from_content(model=self.model_name, content=CANNED_REPLY)
            replied = len(simulator.reply_tokens)
            output.usage = ModelUsage(
                input_tokens=prompt,
                output_tokens=replied,
                total_tokens=prompt + replied,
                input_tokens_cache_read=prompt - prefilled,
            )
            return output


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cache-mb", default="0,512", help="comma-separated TRUSTMH_LLAMA_CACHE_MB values to compare")
    parser.add_argument("--per-task", action="store_true", help="print a row per task for each configuration")
    parser.add_argument(
        "--order",
        choices=("auto", "fifo", "prefix"),
        default="auto",
        help="queue order of the model's calls (auto: as the embedded model, FIFO when reuse is off)",
    )
    args = parser.parse_args()

    from inspect_ai import eval_set

    import trustmh._registry  # noqa: F401
    from trustmh.cli.evaluate import _selected_tasks
    from trustmh.run.runner import build_tasks, eval_set_options

    simulator = ReuseSimulator()
    worker = SerialWorker(simulator)
    register_model(simulator, worker)
    names = _selected_tasks([], [])  # what a bare `trustmh run` runs
    totals = []
    for cache_mb in (int(value) for value in args.cache_mb.split(",")):
        simulator.reset(cache_mb)
        worker.reset(prefix_order=args.order == "prefix" or (args.order == "auto" and cache_mb > 0))
        # The conversation tasks keep their turns on disk (trustmh's turn store, in TRUSTMH_CACHE_DIR;
        # that is how a resumed run skips finished turns): a shared store would answer a later
        # configuration's turns without calling the model at all, so each configuration gets its
        # own; inspect's model cache too, for any other cached call.
        os.environ["TRUSTMH_CACHE_DIR"] = tempfile.mkdtemp(prefix="reuse-sim-cache-")
        os.environ["INSPECT_CACHE_DIR"] = tempfile.mkdtemp(prefix="reuse-sim-inspect-cache-")
        options = eval_set_options(["reuse-sim/smollm2"], display="none")
        eval_set(tasks=build_tasks(names, "starter", None), log_dir=tempfile.mkdtemp(prefix="reuse-sim-"), **options)
        print(f"TRUSTMH_LLAMA_CACHE_MB={cache_mb}: at most {worker.longest_queue} calls waited at once")
        rows = simulator.per_task
        totals.append((cache_mb, *(sum(row[i] for row in rows.values()) for i in range(3))))
        if args.per_task:
            print(f"\nTRUSTMH_LLAMA_CACHE_MB={cache_mb}")
            print(f"{'task':<34} {'calls':>5} {'prompt tok':>10} {'prefilled':>9}")
            for task, (calls, prompt, prefilled) in sorted(rows.items()):
                print(f"{task:<34} {calls:>5} {prompt:>10} {prefilled:>9}")
    print(f"\n{'cache MB':>8} {'calls':>5} {'prompt tok':>10} {'prefilled':>9}")
    for cache_mb, calls, prompt, prefilled in totals:
        print(f"{cache_mb:>8} {calls:>5} {prompt:>10} {prefilled:>9}")


if __name__ == "__main__":
    main()
