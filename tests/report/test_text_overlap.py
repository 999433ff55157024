"""The browser test's overlap check sees what it should, without a browser."""

from __future__ import annotations

from tests.report.text_overlap import overlapping_texts


def test_overlap_check_finds_intersections_only_within_a_chart() -> None:
    boxes = [
        ["c1", "a", 0, 0, 10, 10],
        ["c1", "b", 5, 5, 15, 15],
        ["c2", "c", 5, 5, 15, 15],
        ["c1", "d", 16, 0, 26, 10],
    ]
    assert overlapping_texts(boxes) == [("c1", "a", "b")]
    touching = [["c1", "a", 0, 0, 10, 10], ["c1", "b", 9, 0, 19, 10]]  # 1 px: rounding, not an overlap
    assert overlapping_texts(touching) == []
