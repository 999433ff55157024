"""A found identifier and how overlapping finds are settled."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Span:
    kind: str
    start: int
    end: int
    value: str


def settle(text: str, spans: Iterable[Span], priority: dict[str, int]) -> list[Span]:
    """Non-overlapping spans, in text order: overlapping finds are merged into one span of the
    kind with the highest priority (a phone inside an address is part of the address)."""
    ordered = sorted(spans, key=lambda s: (s.start, -s.end))
    merged: list[Span] = []
    for span in ordered:
        if merged and span.start < merged[-1].end:
            last = merged[-1]
            kind = min((last.kind, span.kind), key=lambda k: priority.get(k, 99))
            end = max(last.end, span.end)
            merged[-1] = Span(kind, last.start, end, text[last.start : end])
        else:
            merged.append(span)
    return merged
