"""Recall and precision of :func:`trustmh.deid.find_spans` on a labelled probe set.

A labelled identifier counts as **found** when every letter and digit of it lies inside a
reported span (a partly redacted phone still leaks); recall per labelled kind = found / labelled.
A reported span is a **true positive** when it overlaps a labelled identifier; precision per
reported kind = true positives / reported spans (over-redaction: text the judge no longer sees).
A **kept** value (crisis line, clinical term, dose, a date that is no birth date) must overlap
no reported span. Names are looked for across each probe's messages, as in an audit.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trustmh.deid import Span, find_names, find_spans


@dataclass
class Tally:
    labelled: Counter[str] = field(default_factory=Counter)
    found: Counter[str] = field(default_factory=Counter)
    reported: Counter[str] = field(default_factory=Counter)
    true_positive: Counter[str] = field(default_factory=Counter)
    keep: int = 0
    kept: int = 0
    missed: list[str] = field(default_factory=list)  # probe ids and kinds, never needed for the figures
    removed: list[str] = field(default_factory=list)

    def recall(self, kind: str | None = None) -> float:
        labelled = sum(self.labelled.values()) if kind is None else self.labelled[kind]
        found = sum(self.found.values()) if kind is None else self.found[kind]
        return found / labelled if labelled else float("nan")

    def precision(self, kind: str | None = None) -> float:
        reported = sum(self.reported.values()) if kind is None else self.reported[kind]
        hits = sum(self.true_positive.values()) if kind is None else self.true_positive[kind]
        return hits / reported if reported else float("nan")


def read_probes(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _covered(text: str, start: int, end: int, spans: list[Span]) -> bool:
    return all(any(s.start <= i < s.end for s in spans) for i in range(start, end) if text[i].isalnum())


def _overlaps(start: int, end: int, span: Span) -> bool:
    return span.start < end and start < span.end


def evaluate(probes: list[dict[str, Any]]) -> Tally:
    tally = Tally()
    for probe in probes:
        messages: list[str] = probe["messages"]
        names = find_names(messages)
        found = [find_spans(text, names) for text in messages]
        gold: list[list[tuple[int, int]]] = [[] for _ in messages]
        for item in probe["pii"]:
            text, spans = messages[item["message"]], found[item["message"]]
            start = text.index(item["value"])
            end = start + len(item["value"])
            gold[item["message"]].append((start, end))
            tally.labelled[item["kind"]] += 1
            if _covered(text, start, end, spans):
                tally.found[item["kind"]] += 1
            else:
                tally.missed.append(f"{probe['id']}:{item['kind']}")
        for item in probe["keep"]:
            start = messages[item["message"]].index(item["value"])
            end = start + len(item["value"])
            tally.keep += 1
            if any(_overlaps(start, end, s) for s in found[item["message"]]):
                tally.removed.append(f"{probe['id']}:{item['value']}")
            else:
                tally.kept += 1
        for index, spans in enumerate(found):
            for span in spans:
                tally.reported[span.kind] += 1
                tally.true_positive[span.kind] += any(_overlaps(a, b, span) for a, b in gold[index])
    return tally
