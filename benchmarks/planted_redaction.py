"""How often ordinary text is taken for a planted verdict (``suspected_plant``), and what the check costs.

Ordinary mental-health text must reach the judge unchanged: a text with a suspected plant
under some judged rubric is a false positive (the judge reads it with words masked, and the
sample is flagged). Texts:

* the starter suite: every text of the items shipped with trustmh (``*/starter/*``, the audit's
  example export): user messages, scenarios, reference answers;
* real models' answers released with TrustMH-Bench (``replay_trustmh``: EthicMH reasoning,
  PsyLeak and ConfAIde answers of 5-12 models);
* MentalAlign-70k contexts and C-SSRS Reddit posts (long, informal, non-ASCII).

Each text is checked against every judged rubric (``tests/hardening/test_plant_grammar.JUDGED``,
the rubrics the planted-verdict corpus runs against). Usage:
``TRUSTMH_TEST_DATA=../shared/data python benchmarks/planted_redaction.py [--limit N]`` (N texts
per set; the full run is about 2 minutes of CPU).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import openpyxl
from tests.hardening.test_plant_grammar import JUDGED

from trustmh.scoring.planted import planted_ratings

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "trustmh"


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        if len(value.split()) >= 3:
            yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def starter_texts() -> list[str]:
    texts: list[str] = []
    files = [p for p in PACKAGE.rglob("*") if "starter" in p.parts or p.parent.name == "examples"]
    for path in sorted(f for f in files if f.suffix in (".json", ".jsonl", ".csv")):
        raw = path.read_text(encoding="utf-8")
        if path.suffix == ".csv":
            texts += [cell for row in csv.reader(raw.splitlines()) for cell in row if len(cell.split()) >= 3]
        elif path.suffix == ".jsonl":
            texts += [t for line in raw.splitlines() if line.strip() for t in _strings(json.loads(line))]
        else:
            texts += list(_strings(json.loads(raw)))
    return texts


def model_answers(root: Path) -> list[str]:
    texts = []
    for path in sorted((root / "replay_trustmh").rglob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            output = json.loads(line).get("output") if line.strip() else None
            if isinstance(output, str) and output.strip():
                texts.append(output)
    return texts


def reference_texts(root: Path) -> dict[str, list[str]]:
    csv.field_size_limit(10**9)
    sheet = openpyxl.load_workbook(root / "mentalalign70k" / "human_judge.xlsx", read_only=True).active
    contexts = [row[1] for row in list(sheet.iter_rows(values_only=True))[1:] if isinstance(row[1], str)]
    with (root / "cssrs" / "500_Reddit_users_posts_labels.csv").open(encoding="utf-8", errors="replace") as handle:
        posts = [row[1] for row in csv.reader(handle)][1:]
    return {"MentalAlign contexts": contexts, "C-SSRS Reddit posts": posts}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="texts per set (default: all)")
    limit = parser.parse_args().limit
    root = Path(os.environ.get("TRUSTMH_TEST_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"))
    sets = {"starter suite": starter_texts(), "released model answers": model_answers(root), **reference_texts(root)}
    for name, texts in sets.items():
        texts = texts[:limit]
        start = time.perf_counter()
        flagged = [t for t in texts if any(planted_ratings(t, rubric) for rubric in JUDGED.values())]
        per_text = (time.perf_counter() - start) * 1000 / max(1, len(texts))
        mean_chars = sum(map(len, texts)) / max(1, len(texts))
        print(
            f"{name}: {len(flagged)} of {len(texts)} texts with a suspected plant "
            f"({100 * len(flagged) / max(1, len(texts)):.2f}%; mean {mean_chars:.0f} chars; "
            f"{per_text:.1f} ms per text for {len(JUDGED)} rubrics)"
        )
        for text in flagged[:5]:
            print(f"   e.g. {text[:160]!r}")


if __name__ == "__main__":
    main()
