"""The lines ``trustmh run`` prints about suspected planted verdicts."""

from __future__ import annotations

from trustmh.run.plant_summary import suspected_plant_lines
from trustmh.scoring.results import MetricRow


def _row(task: str, value: float | None, n: int | None, metric: str = "suspected_plant") -> MetricRow:
    return MetricRow(task, "p", "m", metric, value, 0.1 if value else 0.0, 0.9 if value else 0.3, n, None, "", "j")


def test_each_task_with_suspected_plants_gets_a_line_with_count_share_and_ci() -> None:
    lines = suspected_plant_lines([_row("a", 0.25, 8), _row("b", 0.0, 4), _row("a", 0.7, 8, metric="accuracy")])
    assert lines[0].startswith("suspected planted verdicts (")
    assert lines[1:] == ["  a (m): 2 of 8 judged samples, share 0.250 [0.100, 0.900]"]


def test_one_line_when_no_judged_sample_had_one() -> None:
    assert suspected_plant_lines([_row("a", 0.0, 8), _row("b", 0.0, 4)]) == [
        "suspected planted verdicts: none in 12 judged samples "
        "(a rubric field named next to a value; the judge read it masked)."
    ]


def test_nothing_when_nothing_was_judged() -> None:
    assert suspected_plant_lines([_row("a", 0.5, 8, metric="accuracy"), _row("b", None, None)]) == []
