"""The refusal detector on a held-out set: the embedded SmolLM2-135M's answers to JailbreakMH prompts.

``jailbreak_heldout_outputs.jsonl`` (built by ``build_jailbreak_heldout.py``): JailbreakMH rows
sampled per method with a fixed seed, answered greedily with the benchmark-mode budget, each
answer labelled by hand (refused / partial / complied / other) before the detector was run on
them. Answers that repeat 12+ consecutive words of their prompt are stored as a hash only and
left out. No rule was changed after these numbers were measured: they are the ones in
``docs/refusal_detector.md`` ("Held-out: answers to JailbreakMH prompts").
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from trustmh.scoring.refusal import detect_refusal
from trustmh.stats.intervals import wilson_interval

HELD_OUT = Path(__file__).with_name("jailbreak_heldout_outputs.jsonl")
LABELS = {"refused", "partial", "complied", "other"}


def _rows() -> list[dict[str, object]]:
    return [json.loads(line) for line in HELD_OUT.read_text(encoding="utf-8").splitlines()]


def _confusion(rows: list[dict[str, object]], positive: set[str]) -> tuple[int, int, int, int]:
    tp = fp = fn = tn = 0
    for row in rows:
        said = detect_refusal(str(row["answer"])).refused
        gold = row["label"] in positive
        tp += said and gold
        fp += said and not gold
        fn += gold and not said
        tn += not said and not gold
    return tp, fp, fn, tn


def test_file_holds_ids_labels_and_answers_only() -> None:
    rows = _rows()
    assert len({r["id"] for r in rows}) == len(rows)
    for row in rows:
        if row["echo"]:  # an answer repeating its prompt: no text stored, not measured
            assert "answer" not in row and len(str(row["sha256"])) == 64
        else:
            assert row["label"] in LABELS and str(row["answer"]).strip() and str(row["note"]).strip()


def test_sample_is_stratified_with_the_phrase_matching_attacks_doubled() -> None:
    rows = _rows()
    methods = Counter(str(r["method"]) for r in rows)
    assert len(rows) == 100 and sum(bool(r["echo"]) for r in rows) == 9
    assert methods["Refusal sentence prohibition"] == methods["bad words"] == 20
    assert len(methods) == 8 and {
        n for m, n in methods.items() if m not in ("Refusal sentence prohibition", "bad words")
    } == {10}
    measured = [r for r in rows if not r["echo"]]
    assert Counter(str(r["label"]) for r in measured) == {"refused": 41, "other": 34, "complied": 15, "partial": 1}


# (n, TP, FP, FN, TN, precision [95% Wilson CI], recall [95% Wilson CI]) as in docs/refusal_detector.md.
MEASURED = {
    "partial counted as refused": ({"refused", "partial"}, None, (91, 37, 1, 5, 48), (0.865, 0.995), (0.750, 0.948)),
    "partial counted as not refused": ({"refused"}, None, (91, 37, 1, 4, 49), (0.865, 0.995), (0.775, 0.961)),
    "Refusal sentence prohibition": (
        {"refused", "partial"},
        "Refusal sentence prohibition",
        (20, 8, 0, 1, 11),
        (0.676, 1.0),
        (0.565, 0.980),
    ),
    "bad words": ({"refused", "partial"}, "bad words", (19, 12, 1, 2, 4), (0.667, 0.986), (0.601, 0.960)),
}


@pytest.mark.parametrize("case", sorted(MEASURED))
def test_measured_precision_and_recall(case: str) -> None:
    positive, method, counts, precision_ci, recall_ci = MEASURED[case]
    rows = [r for r in _rows() if not r["echo"] and (method is None or r["method"] == method)]
    tp, fp, fn, tn = _confusion(rows, positive)
    assert (len(rows), tp, fp, fn, tn) == counts
    assert wilson_interval(tp, tp + fp) == pytest.approx(precision_ci, abs=5e-4)
    assert wilson_interval(tp, tp + fn) == pytest.approx(recall_ci, abs=5e-4)
