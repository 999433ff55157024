"""Which texts of a chart overlap on the page (the report's browser test checks none do)."""

from __future__ import annotations

OVERLAP_PX = 1.5


def overlapping_texts(boxes: list[list]) -> list[tuple[str, str, str]]:
    """Pairs of texts in the same chart whose boxes intersect (beyond a rounding margin)."""
    found = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if a[0] != b[0]:
                continue
            width = min(a[4], b[4]) - max(a[2], b[2])
            height = min(a[5], b[5]) - max(a[3], b[3])
            if width > OVERLAP_PX and height > OVERLAP_PX:
                found.append((a[0], a[1], b[1]))
    return found
