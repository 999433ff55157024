"""A short, controlled comparison of the embedded model's threading settings, idle and beside a
CPU-bound competitor: what chose :data:`trustmh.models.threads.SPIN_COUNT` and the thread counts.

Each setting runs in its own process (libgomp reads its variables once, when loaded): SmolLM2
as :class:`trustmh.models.llama.EmbeddedLlama` (no state cache, no answer reused), one warm-up
call, then a fixed set of :data:`PROMPTS` (greedy, ``--max-tokens`` each, ~250 prompt tokens
each). Printed per setting: wall and CPU seconds (``resource.getrusage`` of that process) of
the prompt set, idle and with ``--competitors`` single-threaded busy loops running (started
just before the set, stopped just after), the ratios busy / idle, and whether the outputs are
the same as the first setting's (they must be: greedy decoding).

Settings (``--settings`` picks some by name): ``old`` (threads = cores, libgomp's default spin
of 300,000: trustmh before issue 26), ``spin10k``, ``spin1k``, ``passive`` (threads = cores,
spin capped or off), ``one`` (one thread: no barriers at all), ``default`` (trustmh's
default now: threads chosen per call from the free cores, spin capped at
:data:`trustmh.models.threads.SPIN_COUNT`).

    PYTHONPATH=src python benchmarks/llama_threads_bench.py [--settings old,spin10k] [--max-tokens 48]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import subprocess
import sys
import time

PROMPTS = [
    (
        f"Case {index}. A person writes to a support line: 'For {weeks} weeks I have {trouble}. "
        "My family does not notice and I do not want to worry them. At work I smile and at night I lie "
        "awake going over every mistake I made that day. I tried exercise and a diary but neither lasted.' "
        "In three or four sentences, say how a counsellor should answer them, what to ask first, and "
        "which signs would mean the person needs urgent help rather than self-care advice."
    )
    for index, (weeks, trouble) in enumerate(
        [
            ("six", "barely slept"),
            ("three", "stopped eating properly"),
            ("ten", "felt numb most days"),
            ("two", "had panic attacks on the train"),
            ("eight", "cried every evening"),
            ("five", "avoided all my friends"),
        ]
    )
]
CORES = os.cpu_count() or 1
# name: environment of the setting's process (threading variables not named here are unset)
SETTINGS = {
    "old": {"TRUSTMH_LLAMA_THREADS": str(CORES), "GOMP_SPINCOUNT": "300000"},
    "spin10k": {"TRUSTMH_LLAMA_THREADS": str(CORES), "GOMP_SPINCOUNT": "10000"},
    "spin1k": {"TRUSTMH_LLAMA_THREADS": str(CORES), "GOMP_SPINCOUNT": "1000"},
    "passive": {"TRUSTMH_LLAMA_THREADS": str(CORES), "OMP_WAIT_POLICY": "PASSIVE"},
    "one": {"TRUSTMH_LLAMA_THREADS": "1", "GOMP_SPINCOUNT": "300000"},
    "default": {},
}
COMPETITOR = "import sys, time\nend = time.monotonic() + float(sys.argv[1])\nwhile time.monotonic() < end:\n    pass\n"


def child(max_tokens: int, competitors: int, prompts: int) -> None:
    """Run the prompt set in this process; print wall, CPU and a hash of the outputs as JSON."""
    from trustmh.models.llama import EmbeddedLlama, smollm2_path

    model = EmbeddedLlama(smollm2_path(), cache_mb=0)

    def answer(text: str) -> str:
        return model.chat([{"role": "user", "content": text}], max_tokens=max_tokens, temperature=0.0).text

    answer("Say hello.")  # warm-up: first-call allocations, page cache
    rivals = [subprocess.Popen([sys.executable, "-c", COMPETITOR, "600"]) for _ in range(competitors)]
    before, start = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
    outputs = [answer(text) for text in PROMPTS[:prompts]]
    wall, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF)
    for rival in rivals:
        rival.terminate()
        rival.wait()
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    digest = hashlib.sha256(json.dumps(outputs).encode()).hexdigest()[:12]
    print(json.dumps({"wall": wall, "cpu": cpu, "outputs": digest, "threads": model._thread_count}))
    model.close()


def measure(name: str, max_tokens: int, competitors: int, prompts: int) -> dict[str, float | str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("OMP_", "GOMP_", "TRUSTMH_LLAMA"))}
    env.update(SETTINGS[name])
    command = [sys.executable, __file__, "--child", str(max_tokens), str(competitors), str(prompts)]
    completed = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return json.loads(completed.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--settings", default=",".join(SETTINGS), help="comma-separated names")
    parser.add_argument("--max-tokens", type=int, default=48)
    parser.add_argument("--competitors", type=int, default=1)
    parser.add_argument("--prompts", type=int, default=len(PROMPTS), help="the first N of the prompt set")
    parser.add_argument("--child", nargs=3, type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    names = args.settings.split(",")
    print(f"{CORES} cores, load average {os.getloadavg()[0]:.2f}; {args.prompts} prompts x {args.max_tokens} tokens")
    print(
        f"{'setting':<8} {'idle wall':>9} {'idle CPU':>8} {'busy wall':>9} {'busy CPU':>8} {'wall x':>6} {'CPU x':>6}  outputs, threads at the end idle/busy"
    )
    reference = None
    for name in names:
        idle = measure(name, args.max_tokens, 0, args.prompts)
        busy = measure(name, args.max_tokens, args.competitors, args.prompts)
        reference = reference or idle["outputs"]
        same = "same" if idle["outputs"] == busy["outputs"] == reference else "DIFFERENT"
        print(
            f"{name:<8} {idle['wall']:>9.2f} {idle['cpu']:>8.2f} {busy['wall']:>9.2f} {busy['cpu']:>8.2f} "
            f"{float(busy['wall']) / float(idle['wall']):>6.2f} {float(busy['cpu']) / float(idle['cpu']):>6.2f}  {same}, {idle['threads']}/{busy['threads']}",
            flush=True,
        )
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
