"""The escalation chart: 1 - high-risk recall (strict when reported) against over-escalation, one point per model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.report.report_helpers import Logs
from trustmh.report import build_report
from trustmh.report.escalation_tradeoff import (
    EscalationPoint,
    Rate,
    escalation_points,
    escalation_sentences,
    escalation_tradeoff_figure,
    failing_side,
)
from trustmh.report.figures import styles
from trustmh.scoring.results import MetricRow


def row(
    model: str, task: str, metric: str, value: float | None, ci: tuple[float, float] | None = None, **strict
) -> MetricRow:
    low, high = ci or (None, None)
    return MetricRow(task, "crisis", model, metric, value, low, high, 20, 0, "starter", None, **strict)


def recall(
    model: str, value: float, ci: tuple[float, float], strict: tuple[float, float, float] | None = None
) -> MetricRow:
    extra = (
        {}
        if strict is None
        else {"strict": strict[0], "strict_ci_low": strict[1], "strict_ci_high": strict[2], "strict_n": 24}
    )
    return row(model, "crisis_classification", "high_risk_recall", value, ci, **extra)


def test_points_flip_recall_prefer_strict_and_one_method_for_every_model() -> None:
    rows = [
        recall("a", 0.9, (0.8, 0.95), strict=(0.6, 0.5, 0.7)),
        recall("b", 0.8, (0.7, 0.9)),
        row("a", "crisis_overescalation", "over_escalation_rate", 0.1, (0.05, 0.2)),
        row("a", "crisis_overescalation", "over_escalation_rate_judge", 0.3, (0.2, 0.4)),
        row("b", "crisis_overescalation", "over_escalation_rate", 0.6, (0.5, 0.7)),  # no judge for b: left out
        row("c", "crisis_overescalation", "over_escalation_rate_judge", 0.2, (0.1, 0.3)),  # no miss axis: left out
        row("a", "robustness_crisis_classification", "high_risk_recall", 0.1),  # another task: not read
    ]
    points = escalation_points(rows)
    assert [p.model for p in points] == ["a"]
    (a,) = points
    assert a.miss.value == pytest.approx(0.4) and a.miss.ci == pytest.approx((0.3, 0.5)) and a.miss.n == 24
    assert a.miss.metric == "1 - high_risk_recall_strict"
    assert a.over.value == 0.3 and a.over.metric == "over_escalation_rate_judge"
    assert a.side == "neither side clearly"  # [0.3, 0.5] overlaps [0.2, 0.4]
    # without any judged rate, the detector's is the axis and b is drawn
    detector_only = [r for r in rows if r.metric != "over_escalation_rate_judge"]
    by_model = {p.model: p for p in escalation_points(detector_only)}
    assert set(by_model) == {"a", "b"} and by_model["b"].miss.metric == "1 - high_risk_recall"
    assert by_model["b"].miss.ci == pytest.approx((0.1, 0.3)) and by_model["b"].side == "over-escalation"
    fig = escalation_tradeoff_figure(detector_only, styles(["a", "b"]))
    assert fig is not None and [t.name for t in fig.data] == ["a", "b"]
    b = fig.data[1]
    assert (b.x[0], b.y[0]) == (pytest.approx(0.2), 0.6)
    assert b.error_x.arrayminus[0] == pytest.approx(0.1) and b.error_y.array[0] == pytest.approx(0.1)
    assert "over_escalation_rate" in fig.layout.yaxis.title.text


def test_failing_side_needs_separated_cis() -> None:
    def rate(value: float, low: float, high: float) -> Rate:
        return Rate(value, (low, high), 20, "m")

    assert failing_side(rate(0.5, 0.4, 0.6), rate(0.1, 0.05, 0.2)) == "missing crises"
    assert failing_side(rate(0.1, 0.05, 0.2), rate(0.5, 0.4, 0.6)) == "over-escalation"
    assert failing_side(rate(0.3, 0.2, 0.4), rate(0.35, 0.25, 0.45)) == "neither side clearly"
    assert (
        failing_side(Rate(0.9, None, 40, "m"), rate(0.1, 0.05, 0.2)) == "neither side clearly"
    )  # a mean of logs: no CI


def test_sentence_names_both_rates_and_the_side() -> None:
    point = EscalationPoint(
        "m",
        "starter",
        Rate(0.4, (0.3, 0.5), 24, "1 - high_risk_recall_strict", "high_risk_recall_strict 0.600"),
        Rate(0.1, (0.05, 0.2), 20, "over_escalation_rate"),
        "missing crises",
    )
    (sentence,) = escalation_sentences([point])
    assert sentence["text"] == (
        "escalation balance: misses 40% [30, 50] of high-risk messages (1 − high_risk_recall_strict 0.600, "
        "unparsed answers counted as misses, n = 24) and over-escalates 10% [5, 20] "
        "of everyday distress (n = 20, over_escalation_rate): fails mainly by missing crises"
    )


def test_no_chart_without_both_axes() -> None:
    assert escalation_tradeoff_figure([recall("a", 0.5, (0.4, 0.6))], styles(["a"])) is None


def test_report_json_has_one_point_per_model(logs: Logs, tmp_path: Path) -> None:
    build_report([logs.root], tmp_path / "r.html", json_path=tmp_path / "r.json")
    points = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["escalation_tradeoff"]
    by_model = {p["model"]: p for p in points}
    assert set(by_model) == {"trustmh/replay/model-a", "trustmh/replay/model-b"}
    a = by_model["trustmh/replay/model-a"]
    assert a["miss"]["value"] == pytest.approx(0.4) and a["miss"]["ci"] == pytest.approx([0.3, 0.5])
    assert a["over"]["value"] == pytest.approx(0.15) and a["over"]["ci"] == pytest.approx([0.09, 0.21])
    assert a["side"] == "missing crises" and by_model["trustmh/replay/model-b"]["side"] == "neither side clearly"


def test_a_miss_rate_from_mostly_unparsed_answers_gives_no_verdict_and_no_point() -> None:
    # one of six answers parsed (and right): recall 1.000 parsed-only, 0.167 strict — neither is a finding
    rows = [
        MetricRow(
            "crisis_classification", "crisis", "a", "high_risk_recall", 1.0, 0.2, 1.0, 1, 5, "starter", None,
            strict=1 / 6, strict_ci_low=0.03, strict_ci_high=0.56, strict_n=6,
        ),
        row("a", "crisis_overescalation", "over_escalation_rate", 0.1, (0.05, 0.2)),
    ]  # fmt: skip
    (point,) = escalation_points(rows)
    assert point.side == "no verdict"
    (sentence,) = escalation_sentences([point])
    assert sentence["text"] == (
        "escalation balance: no verdict — the high-risk recall rate is no finding "
        "(5 of 6 answers unparsed (more than 50%))"
    )
    assert escalation_tradeoff_figure(rows, styles(["a"])) is None


def test_the_crisis_prose_states_the_numbers_its_metrics_table_shows() -> None:
    """The sentence's miss rate is 1 − the strict recall the metrics table prints for the same row."""
    import re
    from types import SimpleNamespace

    from trustmh.report.render import _metric_cell

    recall_row = MetricRow(
        "crisis_classification", "crisis", "a", "high_risk_recall", 1.0, 0.8, 1.0, 18, 2, "starter", None,
        strict=0.9, strict_ci_low=0.7, strict_ci_high=0.97, strict_n=20,
    )  # fmt: skip
    rows = [recall_row, row("a", "crisis_overescalation", "over_escalation_rate", 0.1, (0.05, 0.2))]
    (sentence,) = escalation_sentences(escalation_points(rows))
    log = SimpleNamespace(judge_corrections={}, judge_notes={}, key="k", path="p")
    cell = _metric_cell(recall_row, log)  # type: ignore[arg-type]  # the fields the cell reads
    found = re.search(
        r"misses (\d+)% \[[^]]*\] of high-risk messages \(1 − (high_risk_recall_strict [\d.]+),", sentence["text"]
    )
    assert found is not None, sentence["text"]
    percent, shown = found.groups()
    assert cell["strict"].startswith(f"{shown} [")  # the very value, as the metrics table prints it
    assert int(percent) == round(100 * (1 - float(shown.split()[1])))
