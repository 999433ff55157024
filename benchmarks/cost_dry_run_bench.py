"""``--dry-run`` on a MentalAlign-sized workload: 1,000 conversations x 10 responses judged.

A synthetic wide responses file (contexts ~700 characters, responses ~1,200, the sizes of
MentalBench-100k) is written to a temporary folder; then the whole ``trustmh judge
--dry-run`` process is timed for an API judge (stated token estimate) and the embedded judge
(real tokenisation with the GGUF vocabulary), and ``trustmh generate --dry-run`` for 9 models.
The target is < 5 s per command. Baseline in the same run: the process start-up alone
(``trustmh judge --help``), so the ratio shows what the estimate itself costs. Wall time
depends on how many processes share the cores; the CPU time of each command is printed too.

Python's bytecode cache is on (in a private folder, warmed by one untimed run) whatever
``PYTHONDONTWRITEBYTECODE`` says: an installed trustmh has its ``.pyc`` files, and without them
every command recompiles the modules it imports (~1 s of CPU before this was fixed).

    python benchmarks/cost_dry_run_bench.py
"""

from __future__ import annotations

import csv
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROWS = 1000
RESPONSE_COLUMNS = [
    "response",
    "claude",
    "ds_llama",
    "ds_qwen",
    "gemini",
    "gpt4o",
    "gpt4omini",
    "llama_3",
    "qwen_2",
    "qwen_3",
]
WORDS = "I feel really overwhelmed lately and cannot sleep my work family friends anxious support talk".split()


def sentence(rng: random.Random, characters: int) -> str:
    words: list[str] = []
    while sum(len(w) + 1 for w in words) < characters:
        words.append(rng.choice(WORDS))
    return " ".join(words)


def write_workload(path: Path) -> None:
    rng = random.Random(0)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["ConvID", "context", *RESPONSE_COLUMNS])
        for index in range(ROWS):
            writer.writerow([index + 1, sentence(rng, 700), *(sentence(rng, 1200) for _ in RESPONSE_COLUMNS)])


def timed(args: list[str], env: dict[str, str]) -> float:
    """Wall seconds of one ``trustmh`` command (its CPU seconds are added to ``CPU``)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "trustmh", *args], env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise SystemExit(result.stderr[-2000:])
    CPU[args[0] + " " + args[-1]] = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return elapsed


CPU: dict[str, float] = {}


def fill_cache_and_time(workload: Path, folder: Path, env: dict[str, str]) -> float:
    """A cache file with 10,000 unrelated rows, so the dry run also looks every request up."""
    from trustmh.bulk.cache import CompletionCache
    from trustmh.bulk.request import Completion

    cache = CompletionCache(folder / "bulk.sqlite")
    for index in range(10_000):
        cache.put(f"{index:064x}", "openai/gpt-4o", Completion("x", 1, 1, "stop"))
    cache.close()
    out = str(folder / "judge.csv")
    return timed(["judge", "--responses", str(workload), "--judge-model", "openai/gpt-4o", "-o", out, "--dry-run"], env)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        workload = Path(folder) / "responses.csv"
        write_workload(workload)
        env = {**os.environ, "TRUSTMH_CACHE_DIR": folder, "COLUMNS": "160", "PYTHONPYCACHEPREFIX": f"{folder}/pyc"}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        out = str(Path(folder) / "judge.csv")
        api_args = ["judge", "--responses", str(workload), "--judge-model", "openai/gpt-4o", "-o", out, "--dry-run"]
        timed(api_args, env)  # warm-up: writes the bytecode cache
        base = timed(["judge", "--help"], env)
        base_cpu = CPU["judge --help"]
        api = timed(api_args, env)
        api_cpu = CPU["judge --dry-run"]
        local = timed(
            ["judge", "--responses", str(workload), "--judge-model", "trustmh/smollm2", "-o", out, "--dry-run"], env
        )
        models = [f"--model={c}=openai/gpt-4o-mini" for c in RESPONSE_COLUMNS[1:]]
        cached = fill_cache_and_time(workload, Path(folder), env)
        gen = timed(["generate", "--conversations", str(workload), *models, "-o", out, "--dry-run"], env)
    print(f"process start-up (judge --help): {base:.2f} s (CPU {base_cpu:.2f} s)")
    print(
        f"judge --dry-run, 10,000 requests, API judge (estimate):   {api:.2f} s ({api / base:.1f}x start-up; "
        f"CPU {api_cpu:.2f} s)"
    )
    print(f"judge --dry-run, 10,000 requests, embedded (tokenizer):   {local:.2f} s ({local / base:.1f}x start-up)")
    print(f"generate --dry-run, 9,000 requests, 9 models (estimate):  {gen:.2f} s ({gen / base:.1f}x start-up)")
    print(f"judge --dry-run again with a 10,000-row cache present:    {cached:.2f} s ({cached / base:.1f}x start-up)")


if __name__ == "__main__":
    main()
