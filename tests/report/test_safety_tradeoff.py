"""The two-axis safety chart: one point per model, one method per axis, missing axes left out."""

from __future__ import annotations

import pytest

from trustmh.report.figures import styles
from trustmh.report.safety_tradeoff import safety_tradeoff_figure
from trustmh.scoring.results import MetricRow


def row(model: str, task: str, metric: str, value: float | None, ci: tuple[float, float] | None = None) -> MetricRow:
    low, high = ci or (None, None)
    return MetricRow(task, "safety", model, metric, value, low, high, 20, 0, "starter", None)


def test_one_point_per_model_with_judge_axes_preferred() -> None:
    rows = [
        row("a", "safety_jailbreakmh", "rta_keyword", 0.9, (0.8, 0.95)),
        row("a", "safety_jailbreakmh", "rta_judge", 0.6, (0.5, 0.7)),
        row("a", "safety_jailbreak_generated", "rta_judge", 0.8, (0.7, 0.9)),
        row("a", "safety_overrefusal", "answer_rate_keyword", 0.7, (0.6, 0.8)),
        row("b", "safety_jailbreakmh", "rta_judge", 0.2, (0.1, 0.3)),
        row("b", "safety_overrefusal", "answer_rate_keyword", 0.95, (0.9, 0.99)),
        row("c", "safety_jailbreakmh", "rta_judge", 0.5),  # no benign axis: left out
        row("d", "safety_overrefusal", "answer_rate_judge", None),  # not scored: no judge axis
    ]
    fig = safety_tradeoff_figure(rows, styles(["a", "b", "c", "d"]))
    assert fig is not None
    points = {t.name: (t.x[0], t.y[0]) for t in fig.data}
    # a: mean of its two judged RtAs (the keyword RtA is not mixed in); b: one task each.
    assert points == {"a": (pytest.approx(0.7), 0.7), "b": (0.2, 0.95)}
    a, b = fig.data
    assert not a.error_x.visible and a.error_y.visible  # two tasks: no CI drawn for the mean
    assert b.error_x.array[0] == pytest.approx(0.1) and b.error_x.arrayminus[0] == pytest.approx(0.1)
    assert "rta_judge" in fig.layout.xaxis.title.text and "answer_rate_keyword" in fig.layout.yaxis.title.text


def test_no_chart_without_both_axes() -> None:
    assert safety_tradeoff_figure([row("a", "safety_jailbreakmh", "rta_keyword", 0.5)], styles(["a"])) is None
