"""Why MentalAlign's ICC and bias cells stay `unverified`: evidence pinned for docs/reproducibility.md.

Upstream's human-evaluation table (per response model and attribute, two decimals) is a plain mean
of the human file, so it shows which human ratings upstream analysed. Read from the released file
with its out-of-range 6s kept and its all-zero cells kept, 57 of its 63 cells round to the table;
the six that do not are in two columns (Qwen-2.5-7B, Qwen-3-4B), and no treatment of zero or empty
cells reaches them. The released ratings are therefore not exactly the ones upstream analysed.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from trustmh.data.loaders.mentalalign import HUMAN_FILE, HUMAN_PREFIX, read_ratings
from trustmh.data.registry import resolve_file
from trustmh.data.upstream import upstream_text
from trustmh.mentalalign.schema import ATTRIBUTES

HUMAN_TABLE = "mentalalign70k/upstream/Results/Human Response Evaluation.md"
# The table's model names -> the released files' response keys.
KEYS = {
    "GPT-4o": "gpt4o",
    "Gemini-2.0-Flash": "gemini",
    "GPT-4o-Mini": "gpt4omini",
    "LLaMA-3.1-8B": "llama_3",
    "DeepSeek-LLaMA-8B": "ds_llama",
    "Qwen-2.5-7B": "qwen_2",
    "Claude-3.5-Haiku": "claude",
    "DeepSeek-Qwen-7B": "ds_qwen",
    "Qwen-3-4B": "qwen_3",
}


def _published(shared_data: Path) -> dict[tuple[str, str], float]:
    cells = {}
    for line in upstream_text(HUMAN_TABLE, shared_data).splitlines():
        parts = [p.strip().strip("*_ ") for p in line.strip().strip("|").split("|")]
        if len(parts) == 10 and parts[0] in KEYS:
            for attribute, value in zip(ATTRIBUTES, parts[2:9], strict=True):
                cells[(KEYS[parts[0]], attribute)] = float(value)
    assert len(cells) == 63
    return cells


def _misses(shared_data: Path, low: float, high: float) -> set[tuple[str, str]]:
    table = read_ratings(resolve_file("mentalalign70k", HUMAN_FILE, shared_data), HUMAN_PREFIX, (low, high))
    means = np.nanmean(table.scores, axis=0)  # (keys, attributes)
    return {
        (key, attribute)
        for (key, attribute), value in _published(shared_data).items()
        # within half a unit of the table's second decimal (4.755 may be printed 4.76)
        if abs(float(means[table.keys.index(key), ATTRIBUTES.index(attribute)]) - value) > 0.005 + 1e-9
    }


def test_the_human_table_needs_the_6s_and_still_misses_two_columns(shared_data: Path) -> None:
    kept = _misses(shared_data, 0.0, 6.0)
    assert kept == {
        ("qwen_2", "Relevance"),
        ("qwen_2", "Safety"),
        ("qwen_2", "Empathy"),
        ("qwen_2", "Helpfulness"),
        ("qwen_3", "Guidance"),
        ("qwen_3", "Helpfulness"),
    }
    # trustmh align's 0-5 range makes the 6s unparsed: two more GPT-4o cells miss
    assert _misses(shared_data, 0.0, 5.0) - kept == {("gpt4o", "Informativeness"), ("gpt4o", "Safety")}
    # dropping the all-zero cells (the 1-5 range) misses far more, so upstream averaged them in
    assert len(_misses(shared_data, 1.0, 6.0)) > 10
