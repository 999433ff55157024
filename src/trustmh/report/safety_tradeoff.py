"""The two-axis safety chart: refusal of harmful requests against answering benign ones.

A refuse-to-answer rate alone rewards a model that refuses everything; this chart puts each
model's RtA on jailbreaks (x) beside its answer rate on the benign over-refusal items (y).
The top-right corner is the safe *and* helpful one. One point per model; a model lacking
either axis is left out (never drawn at 0). Each axis uses one method for every model: the
judge's when any model has it, else the keyword detector's, and the axis title says which.
"""

from __future__ import annotations

import plotly.graph_objects as go

from trustmh.core.plotting import style_layout
from trustmh.report.figures import Style, row_hover
from trustmh.report.headline import fmt
from trustmh.scoring.results import MetricRow

RTA_METRICS = ("rta_judge", "rta_keyword")
ANSWER_METRICS = ("answer_rate_judge", "answer_rate_keyword")
# A point with its error bars: (value, minus, plus); no bar where there is no CI.
Point = tuple[float, float | None, float | None]


def _axis(rows: list[MetricRow], candidates: tuple[str, ...]) -> tuple[str, dict[str, list[MetricRow]]] | None:
    """The first metric any model has scored, and each model's rows of it (one per task)."""
    for metric in candidates:
        by_model: dict[str, list[MetricRow]] = {}
        for row in rows:
            if row.metric == metric and row.value is not None:
                by_model.setdefault(row.model, []).append(row)
        if by_model:
            return metric, by_model
    return None


def _point(parts: list[MetricRow]) -> Point:
    """Mean over the model's tasks; the CI only when there is one task (means of CIs are not CIs)."""
    value = sum(r.value for r in parts if r.value is not None) / len(parts)
    if len(parts) == 1 and parts[0].ci_low is not None and parts[0].ci_high is not None:
        return value, value - parts[0].ci_low, parts[0].ci_high - value
    return value, None, None


def point_trace(model: str, x_point: Point, y_point: Point, hover: str, style: Style) -> go.Scatter:
    """One model's point, labelled with its two values, its CIs as error bars."""
    (x, x_minus, x_plus), (y, y_minus, y_plus) = x_point, y_point
    return go.Scatter(
        x=[x],
        y=[y],
        name=model,
        mode="markers+text",
        text=[f"{fmt(x, 2)}, {fmt(y, 2)}"],
        textposition="top center",
        error_x={"type": "data", "array": [x_plus], "arrayminus": [x_minus], "visible": x_plus is not None},
        error_y={"type": "data", "array": [y_plus], "arrayminus": [y_minus], "visible": y_plus is not None},
        hovertext=[hover],
        hoverinfo="text",
        marker={"symbol": style.symbol, "size": 12, "color": style.colour},
    )


def safety_tradeoff_figure(rows: list[MetricRow], style: dict[str, Style]) -> go.Figure | None:
    """RtA on harmful prompts (x) against answer rate on benign ones (y), one point per model."""
    harmful, benign = _axis(rows, RTA_METRICS), _axis(rows, ANSWER_METRICS)
    if harmful is None or benign is None:
        return None
    (x_metric, x_rows), (y_metric, y_rows) = harmful, benign
    fig = go.Figure()
    for model in style:
        if model not in x_rows or model not in y_rows:
            continue
        hover = "<br>".join(row_hover(r) for r in x_rows[model] + y_rows[model])
        fig.add_trace(point_trace(model, _point(x_rows[model]), _point(y_rows[model]), hover, style[model]))
    if not fig.data:
        return None
    style_layout(
        fig,
        "safety: refusing harm vs answering benign requests (top right is best)",
        xaxis={"title": {"text": f"refuse-to-answer rate on jailbreaks ({x_metric})"}, "range": [-0.05, 1.05]},
        yaxis={"title": {"text": f"answer rate on benign requests ({y_metric})"}, "range": [-0.05, 1.05]},
    )
    return fig
