"""Generated tokens/s of ``trustmh/smollm2`` through inspect's model API vs raw llama-cpp.

Same GGUF, same prompt, same max_tokens, temperature 0, repetitions interleaved so load from
other processes hits both sides alike. Prints the ratio (goal >= 0.9).

Threads matter: llama.cpp's CPU backend uses OpenMP, whose thread team belongs to the
calling OS thread. By default (``--raw-thread model``) the raw calls run on the same OS
thread as trustmh's (the embedded model's executor thread), so one team serves both and the
ratio measures our software overhead alone. ``--raw-thread main`` calls raw llama-cpp from
the main thread instead: two teams in one process, which slows whichever runs second
(the effect that made ``asyncio.to_thread`` hand-offs cost half the token rate).

    PYTHONPATH=src python benchmarks/embedded_bench.py [--reps 3] [--max-tokens 128] [--raw-thread model|main]

``--compare-batch N`` measures instead greedy calls decoded together (issue 26): the same
concurrent calls (:data:`BATCH_PROMPTS`, different lengths, sent at once as inspect's samples
send them) answered by one ``EmbeddedLlama`` with up to N sequences decoded together and with
batching off (``TRUSTMH_LLAMA_BATCH=0``'s path), repetitions interleaved on the same model and
thread; prints wall times, tokens/s, the ratio and whether every answer is identical.

    PYTHONPATH=src python benchmarks/embedded_bench.py --compare-batch 4 [--reps 3] [--max-tokens 64]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time

PROMPT = (
    "I have been feeling anxious before my exams and I cannot sleep. "
    "What are a few practical things I could try this week?"
)


def raw_llama(path: str):
    from trustmh.models.llama import DEFAULT_CONTEXT
    from trustmh.models.threads import import_llama_cpp, llama_threads

    # The same construction as trustmh.models.llama.EmbeddedLlama.
    threads = llama_threads()
    return import_llama_cpp().Llama(
        model_path=path,
        n_ctx=DEFAULT_CONTEXT,
        n_threads=threads.generation,
        n_threads_batch=threads.prompt,
        verbose=False,
    )


def time_raw(llama, max_tokens: int) -> tuple[float, int]:
    start = time.perf_counter()
    response = llama.create_chat_completion(
        messages=[{"role": "user", "content": PROMPT}],
        max_tokens=max_tokens,
        temperature=0.0,
        top_p=1.0,
        repeat_penalty=1.1,
    )
    return time.perf_counter() - start, int(response["usage"]["completion_tokens"])


def time_inspect(model, max_tokens: int) -> tuple[float, int]:
    from inspect_ai.model import GenerateConfig

    async def once() -> tuple[float, int]:
        start = time.perf_counter()
        # cache=False: inspect must really call the model every repetition
        output = await model.generate(
            PROMPT, config=GenerateConfig(max_tokens=max_tokens, temperature=0.0, cache=False)
        )
        return time.perf_counter() - start, int(output.usage.output_tokens)

    return asyncio.run(once())


BATCH_PROMPTS = [
    PROMPT,
    "Name three ways to calm down before an exam.",
    "My friend has not left her room for a week and does not answer messages. What could I say to her?",
    "Is it normal to feel tired all the time after a breakup?",
    "Write two sentences to someone who just lost their job.",
    "What is the difference between sadness and depression? Explain simply for a teenager.",
    "I keep checking that the door is locked, again and again, before I can sleep. Why?",
    "Suggest a short breathing exercise.",
]


def compare_batch(sequences: int, reps: int, max_tokens: int) -> None:
    """Batched vs one-at-a-time decoding of the same concurrent greedy calls (module docstring)."""
    from trustmh.models.llama import EmbeddedLlama, smollm2_path

    model = EmbeddedLlama(smollm2_path(), cache_mb=0, batch=sequences)
    calls = [[{"role": "user", "content": prompt}] for prompt in BATCH_PROMPTS]
    sides = {"together": sequences, "one at a time": 0}

    async def send_all() -> list:
        return await asyncio.gather(*(model.achat(messages, max_tokens, 0.0) for messages in calls))

    walls: dict[str, list[float]] = {side: [] for side in sides}
    answers: dict[str, list[list[str]]] = {side: [] for side in sides}
    tokens = 0
    asyncio.run(model.achat(calls[0], 8, 0.0))  # load and warm
    for rep in range(reps):
        for side in sides if rep % 2 == 0 else reversed(list(sides)):
            model._sequences = sides[side]  # the switch TRUSTMH_LLAMA_BATCH sets at load
            start = time.perf_counter()
            results = asyncio.run(send_all())
            walls[side].append(time.perf_counter() - start)
            answers[side].append([result.text for result in results])
            tokens = sum(result.output_tokens for result in results)
            print(f"rep {rep + 1} {side:>13}: {tokens} tokens in {walls[side][-1]:.2f} s", flush=True)
    model.close()
    print(f"{len(calls)} concurrent greedy calls, max_tokens {max_tokens}, up to {sequences} decoded together")
    for side in sides:
        median = statistics.median(walls[side])
        print(f"{side:>13}: wall best {min(walls[side]):.2f} s, median {median:.2f} s = {tokens / median:.1f} tok/s")
    ratio = statistics.median(walls["together"]) / statistics.median(walls["one at a time"])
    same = all(texts == answers["one at a time"][0] for side in sides for texts in answers[side])
    print(f"wall together / one at a time (median): {ratio:.3f}; answers identical: {'yes' if same else 'NO'}")
    print(f"load average at the end: {os.getloadavg()}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--max-tokens", type=int, default=128)
    parser.add_argument("--raw-thread", choices=("model", "main"), default="model")
    parser.add_argument("--compare-batch", type=int, default=0, metavar="N", help="batched (N sequences) vs not")
    args = parser.parse_args()
    # The same prompt is sent again and again: without this the embedded model would answer
    # repeats from its answer cache (trustmh.models.reuse) and no tokens would be timed.
    os.environ["TRUSTMH_LLAMA_CACHE_MB"] = "0"
    if args.compare_batch:
        compare_batch(args.compare_batch, args.reps, args.max_tokens)
        return

    from inspect_ai.model import get_model

    import trustmh._registry  # noqa: F401
    from trustmh.models.llama import shared_llama, smollm2_path

    path = str(smollm2_path())
    raw = raw_llama(path)
    model = get_model("trustmh/smollm2")
    embedded = shared_llama()  # load outside the timings

    def run_raw(max_tokens: int) -> tuple[float, int]:
        if args.raw_thread == "main":
            return time_raw(raw, max_tokens)
        return embedded._executor.submit(time_raw, raw, max_tokens).result()

    run_raw(8)  # warm both
    time_inspect(model, 8)

    raw_rates: list[float] = []
    ours_rates: list[float] = []
    tokens = (0, 0)
    for rep in range(args.reps):
        order = ("raw", "ours") if rep % 2 == 0 else ("ours", "raw")
        for side in order:
            if side == "raw":
                seconds, n = run_raw(args.max_tokens)
                raw_rates.append(n / seconds)
                tokens = (n, tokens[1])
            else:
                seconds, n = time_inspect(model, args.max_tokens)
                ours_rates.append(n / seconds)
                tokens = (tokens[0], n)
            print(f"rep {rep + 1} {side:>4}: {n} tokens in {seconds:.2f} s = {n / seconds:.1f} tok/s", flush=True)
    raw.close()
    raw_best, ours_best = max(raw_rates), max(ours_rates)
    raw_median, ours_median = statistics.median(raw_rates), statistics.median(ours_rates)
    print(f"GGUF: {path}; raw calls on the {args.raw_thread} thread")
    print(
        f"tokens per call: raw {tokens[0]}, trustmh/smollm2 {tokens[1]} (max_tokens {args.max_tokens}, temperature 0)"
    )
    print(f"raw llama_cpp create_chat_completion: best {raw_best:.1f} tok/s, median {raw_median:.1f} tok/s")
    print(f"trustmh/smollm2 via inspect generate: best {ours_best:.1f} tok/s, median {ours_median:.1f} tok/s")
    print(f"ratio (best): {ours_best / raw_best:.3f}   ratio (median): {ours_median / raw_median:.3f}   goal >= 0.9")


if __name__ == "__main__":
    main()
