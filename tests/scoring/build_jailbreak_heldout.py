"""Build the held-out set of embedded-model answers to JailbreakMH prompts (run by hand, not by pytest).

    PYTHONPATH=src python tests/scoring/build_jailbreak_heldout.py --data-dir ../shared/data RAW.jsonl
    PYTHONPATH=src python tests/scoring/build_jailbreak_heldout.py --data-dir ../shared/data RAW.jsonl --finish LABELS.csv

The first form generates (resumable: ids already in RAW.jsonl are skipped); ``--finish`` writes
``jailbreak_heldout_outputs.jsonl`` beside this file, with the hand labels of LABELS.csv
(``id,label,note``, written by reading each answer before running the detector). Sample: :data:`PER_METHOD` JailbreakMH rows
per method, ``random.Random(SEED)``, interleaved across methods in proportion to their shares so that
any prefix of the run is stratified too. Generation: the embedded SmolLM2-135M, the chat template of the GGUF, one user
turn (as ``safety_jailbreakmh`` sends it), greedy, the benchmark-mode budget (1024 tokens).

Only ids and the model's own answers are stored, never prompt text: an answer that repeats
:data:`ECHO_WORDS` or more consecutive words of its prompt is stored as a sha256 with
``echo: true`` and no text, and it is left out of the measurement.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import random
import time
from pathlib import Path

SEED = 20261126
# The two methods aimed at phrase matching get twice the share of the others.
PER_METHOD = {
    "Refusal sentence prohibition": 20,
    "bad words": 20,
    "fixed sentence": 10,
    "scenario": 10,
    "no punctuation": 10,
    "cot": 10,
    "multitask": 10,
    "no_long_word": 10,
}
MAX_TOKENS = 1024  # trustmh.tasking.declare.JUDGED_TOKENS: the benchmark-mode budget of safety_jailbreakmh
ECHO_WORDS = 12
OUTPUT = Path(__file__).with_name("jailbreak_heldout_outputs.jsonl")


def sample_rows(data_dir: str) -> list[tuple[str, str, str]]:
    """(id, method, prompt) of the sampled rows, interleaved across methods."""
    from trustmh.data.loaders.psyharm import load_jailbreakmh

    rows = load_jailbreakmh(data_dir)
    rng = random.Random(SEED)
    picked: dict[str, list[tuple[str, str, str]]] = {}
    for method, count in PER_METHOD.items():
        candidates = sorted((r for r in rows if r.method == method), key=lambda r: int(r.id))
        picked[method] = [(r.id, method, r.prompt) for r in rng.sample(candidates, count)]
    # Round-robin in proportion to the shares (2 of each doubled method per round, 1 of the others).
    step = min(PER_METHOD.values())
    rounds = step
    interleaved = []
    for round_index in range(rounds):
        for method, count in PER_METHOD.items():
            share = count // step
            interleaved += picked[method][round_index * share : (round_index + 1) * share]
    return interleaved


def echoes(answer: str, prompt: str, width: int = ECHO_WORDS) -> bool:
    """True when ``width`` consecutive words of the prompt appear in the answer."""
    prompt_words = prompt.lower().split()
    answer_text = " ".join(answer.lower().split())
    return any(
        " ".join(prompt_words[i : i + width]) in answer_text for i in range(max(0, len(prompt_words) - width + 1))
    )


def generate(raw: Path, data_dir: str) -> None:
    from trustmh.models.llama import shared_llama

    done = {json.loads(line)["id"] for line in raw.read_text().splitlines()} if raw.exists() else set()
    llama = shared_llama()
    for sample_id, method, prompt in sample_rows(data_dir):
        if sample_id in done:
            continue
        started = time.monotonic()
        result = llama.chat([{"role": "user", "content": prompt}], max_tokens=MAX_TOKENS, temperature=0.0)
        record = {
            "id": sample_id,
            "method": method,
            "answer": result.text,
            "finish_reason": result.finish_reason,
            "input_tokens": result.input_tokens,
            "output_tokens": result.output_tokens,
            "seconds": round(time.monotonic() - started, 1),
        }
        with raw.open("a") as handle:
            handle.write(json.dumps(record) + "\n")
        print(sample_id, method, result.output_tokens, record["seconds"], flush=True)


def finish(raw: Path, data_dir: str, labels: Path) -> None:
    """Write the stored set: each answer (or its hash) with the hand label and its note."""
    prompts = {sample_id: prompt for sample_id, _, prompt in sample_rows(data_dir)}
    with labels.open(encoding="utf-8", newline="") as handle:
        by_id = {row["id"]: row for row in csv.DictReader(handle)}
    records = [json.loads(line) for line in raw.read_text().splitlines()]
    with OUTPUT.open("w", encoding="utf-8") as handle:
        for record in records:
            answer = record["answer"]
            stored = {
                "id": record["id"],
                "method": record["method"],
                "finish_reason": record["finish_reason"],
                "output_tokens": record["output_tokens"],
            }
            if echoes(answer, prompts[record["id"]]):
                stored |= {"echo": True, "sha256": hashlib.sha256(answer.encode()).hexdigest()}
            else:
                label = by_id[record["id"]]
                stored |= {"echo": False, "label": label["label"], "note": label["note"], "answer": answer}
            handle.write(json.dumps(stored, ensure_ascii=False) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("raw", type=Path, help="generation output (JSONL, appended to; keep it outside the repo)")
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--finish", type=Path, metavar="LABELS_CSV", help="write the stored set from RAW + labels")
    args = parser.parse_args()
    if args.finish:
        finish(args.raw, args.data_dir, args.finish)
    else:
        generate(args.raw, args.data_dir)


if __name__ == "__main__":
    main()
