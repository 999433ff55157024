"""The page inlines plotly's basic bundle when it draws every trace; no chart without bars."""

from __future__ import annotations

import hashlib
import math

import plotly.graph_objects as go
from plotly.offline import get_plotlyjs

from trustmh.report import figures as figs
from trustmh.report.bundle import BASIC_TRACES, basic_bundle, major_version, plotly_js, trace_types
from trustmh.report.radar import spoke
from trustmh.scoring.results import MetricRow

# npm plotly.js-basic-dist-min 3.7.0, plotly-basic.min.js (MIT): a vendored file changes on purpose only.
BASIC_SHA256 = "c23b03591a6bdad0bd0f47a0c5c52305a5519812b73ce254be65cd841553c9c2"


def test_vendored_basic_bundle_is_the_pinned_file_and_plotly_pys_major_version() -> None:
    basic = basic_bundle()
    assert hashlib.sha256(basic.encode("utf-8")).hexdigest() == BASIC_SHA256
    assert "plotly.js (basic - minified) v3.7.0" in basic[:200]
    assert major_version(basic) == major_version(get_plotlyjs())
    assert len(basic) < 1_200_000 < 4_000_000 < len(get_plotlyjs())


def test_basic_bundle_only_when_it_draws_every_trace() -> None:
    assert plotly_js({"scatter", "bar"}) == basic_bundle()
    assert plotly_js(set()) == basic_bundle()
    assert plotly_js({"scatter", "heatmap"}) == get_plotlyjs()
    assert plotly_js({"scatterpolar"}) == get_plotlyjs()
    figures = {
        "a": go.Figure(go.Bar(x=[1], y=[1])).to_plotly_json(),
        "b": {"data": [{"x": [1]}]},  # no type: plotly draws a scatter
    }
    assert trace_types(figures) == {"bar", "scatter"} <= BASIC_TRACES


def test_radar_spokes_run_clockwise_from_the_top() -> None:
    x, y = spoke(0, 4, 1.0)
    assert abs(x) < 1e-12 and math.isclose(y, 1.0)
    x, y = spoke(1, 4, 0.5)
    assert math.isclose(x, 0.5) and abs(y) < 1e-12


def _row(group: str, value: float | None, high: float | None) -> tuple[str, MetricRow]:
    return group, MetricRow("t", "fairness", "m", f"rate[g={group}]", value, value, high, 6, 0, "starter", None)


def test_bars_all_of_zero_height_are_no_chart() -> None:
    style = figs.styles(["m"])
    flat = [_row("a", 0.0, 0.8), _row("b", None, None)]  # whiskers alone are not a bar chart
    assert figs.flat(flat) and figs.grouped_figures([r for _, r in flat], style) == [("t: rate by g", None)]
    one_bar = [_row("a", 0.0, 0.4), _row("b", 0.2, 0.5)]
    assert not figs.flat(one_bar)
    [(_, figure)] = figs.grouped_figures([r for _, r in one_bar], style)
    assert figure is not None
