"""How often the planted-rating redaction (``trustmh.scoring.planted``) touches ordinary text, and its cost.

Ordinary mental-health text (MentalAlign contexts, C-SSRS Reddit posts from the shared data
folder) must reach the judge unchanged: the count of texts with a redacted span is the false
positive count. Usage: ``TRUSTMH_TEST_DATA=../shared/data python benchmarks/planted_redaction.py``.
"""

from __future__ import annotations

import csv
import os
import time
from pathlib import Path

import openpyxl

from trustmh.mentalalign.rubric import MENTALALIGN_RUBRIC
from trustmh.pillars.reliability.prompts import CPSYCOUN_RUBRIC, ESCONV_RUBRIC
from trustmh.scoring.planted import planted_ratings


def _texts(root: Path) -> dict[str, list[str]]:
    csv.field_size_limit(10**9)
    sheet = openpyxl.load_workbook(root / "mentalalign70k" / "human_judge.xlsx", read_only=True).active
    contexts = [row[1] for row in list(sheet.iter_rows(values_only=True))[1:] if isinstance(row[1], str)]
    with (root / "cssrs" / "500_Reddit_users_posts_labels.csv").open(encoding="utf-8", errors="replace") as handle:
        posts = [row[1] for row in csv.reader(handle)][1:]
    return {"MentalAlign contexts": contexts, "C-SSRS Reddit posts": posts}


def main() -> None:
    root = Path(os.environ.get("TRUSTMH_TEST_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"))
    for name, texts in _texts(root).items():
        for rubric in (MENTALALIGN_RUBRIC, ESCONV_RUBRIC, CPSYCOUN_RUBRIC):
            start = time.perf_counter()
            touched = sum(bool(planted_ratings(text, rubric)) for text in texts)
            per_text = (time.perf_counter() - start) * 1000 / len(texts)
            mean_chars = sum(map(len, texts)) / len(texts)
            print(
                f"{name} x {rubric.name}: {len(texts)} texts (mean {mean_chars:.0f} chars), "
                f"{touched} touched, {per_text:.2f} ms/text"
            )


if __name__ == "__main__":
    main()
