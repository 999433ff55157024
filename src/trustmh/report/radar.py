"""The leaderboard's radar, drawn with scatter traces on a square cartesian plot.

A polar trace needs the full plotly.js (4.7 MB); scatter lines are in the basic bundle the page
inlines (:mod:`trustmh.report.bundle`). Spokes run clockwise from the top, one per pillar;
rings mark 0.25 … 1. A pillar without a normalised score is a gap in the model's line.
"""

from __future__ import annotations

import math

import plotly.graph_objects as go

from trustmh.core.plotting import style_layout
from trustmh.report.figures import Style
from trustmh.report.headline import PillarScore
from trustmh.report.ranking import Leaderboard

RINGS = (0.25, 0.5, 0.75, 1.0)
GRID = "#d0d0d0"
LABEL_RADIUS = 1.12


def spoke(k: float, count: int, r: float) -> tuple[float, float]:
    """Cartesian point at radius ``r`` on spoke ``k`` of ``count`` (spoke 0 at the top, clockwise)."""
    angle = math.pi / 2 - 2 * math.pi * k / count
    return r * math.cos(angle), r * math.sin(angle)


def _grid(fig: go.Figure, count: int) -> None:
    xs: list[float | None] = []
    ys: list[float | None] = []
    for ring in RINGS:
        for k in range(count + 1):
            x, y = spoke(k % count, count, ring)
            xs.append(x)
            ys.append(y)
        xs.append(None)
        ys.append(None)
    for k in range(count):
        x, y = spoke(k, count, 1.0)
        xs += [0.0, x, None]
        ys += [0.0, y, None]
    fig.add_trace(
        go.Scatter(x=xs, y=ys, mode="lines", line={"color": GRID, "width": 1}, hoverinfo="skip", showlegend=False)
    )


def _hover(model: str, pillar: str, score: PillarScore | None) -> str:
    if score is None:
        return f"{model}<br>{pillar}: missing"
    if score.not_scored:
        return f"{model}<br>{pillar}: not scored — {score.not_scored}"
    if score.normalised is None:
        return f"{model}<br>{pillar}: left out ({score.excluded})"
    return f"{model}<br>{pillar} (normalised {score.normalised:.2f})<br>{score.hover()}"


def radar(board: Leaderboard, scores: list[PillarScore], style: dict[str, Style]) -> go.Figure:
    """The leaderboard's pillars, normalised (1 = best); left-out pillars are gaps."""
    fig = go.Figure()
    pillars = board.pillars
    count = len(pillars)
    _grid(fig, count)
    by_key = {(s.model, s.pillar): s for s in scores}
    for row in board.rows:
        xs: list[float | None] = []
        ys: list[float | None] = []
        hover = []
        for k in [*range(count), 0]:
            score = by_key.get((row.model, pillars[k]))
            value = None if score is None else score.normalised
            x, y = spoke(k, count, value) if value is not None else (None, None)
            xs.append(x)
            ys.append(y)
            hover.append(_hover(row.model, pillars[k], score))
        s = style[row.model]
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=ys,
                name=row.model,
                mode="lines+markers",
                connectgaps=False,
                line={"color": s.colour, "dash": s.dash, "width": 2},
                marker={"symbol": s.symbol, "size": 9, "color": s.colour},
                hovertext=hover,
                hoverinfo="text",
            )
        )
    annotations = []
    for k, pillar in enumerate(pillars):
        x, y = spoke(k, count, LABEL_RADIUS)
        side = "center" if abs(x) < 0.2 else ("left" if x > 0 else "right")
        annotations.append({"x": x, "y": y, "text": pillar, "showarrow": False, "xanchor": side})
    # Ring values half-way between the first two spokes, clear of the spoke labels.
    annotations += [
        {"x": x, "y": y, "text": f"{ring:g}", "showarrow": False, "xanchor": "left", "font": {"size": 10}}
        for ring in RINGS
        for x, y in [spoke(0.5, count, ring)]
    ]
    style_layout(
        fig,
        "Pillar scores (0 = worst, 1 = best; gaps = missing, not scored or left out)",
        height=460,
        top=80,
        annotations=annotations,
    )
    hidden = {"visible": False, "range": [-1.3, 1.3], "fixedrange": True}
    fig.update_xaxes(**hidden)
    fig.update_yaxes(**hidden, scaleanchor="x")
    # Room for the spoke labels ("reliability") on narrow screens.
    return fig.update_layout(margin={"l": 70, "r": 70})
