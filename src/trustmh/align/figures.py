"""Plotly figures of an :class:`~trustmh.align.AlignmentResult`, reusable by other reports.

Each builder returns a ``plotly.graph_objects.Figure``; embedding (and inlining plotly.js
for offline pages) is left to the caller, see :mod:`trustmh.align.report`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from trustmh.align.analysis import ALL_ATTRIBUTES, COMPOSITES, AlignmentResult

_JUDGE_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")


def _fmt(value: float) -> str:
    return "–" if value is None or not math.isfinite(value) else f"{value:.2f}"


def icc_heatmap(result: AlignmentResult, level: str = "model", statistic: str = "icc_c1") -> go.Figure:
    """Judges × attributes heatmap of ICC(C,1) or ICC(A,1); cells show the 95% CI and category."""
    judges = [j.name for j in result.judges]
    z, text = [], []
    for judge in judges:
        by_attr = {r.attribute: r for r in result.select(level=level, judge=judge)}
        row_z, row_t = [], []
        for attr in ALL_ATTRIBUTES:
            r = by_attr[attr]
            value = getattr(r, statistic)
            lo, hi = getattr(r, f"{statistic}_ci")
            row_z.append(value if math.isfinite(value) else None)
            cat = f"<br>{r.category}" if statistic == "icc_c1" and r.category else ""
            row_t.append(f"{_fmt(value)}<br>[{_fmt(lo)}, {_fmt(hi)}]{cat}")
        z.append(row_z)
        text.append(row_t)
    label = "ICC(C,1) consistency" if statistic == "icc_c1" else "ICC(A,1) absolute agreement"
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=list(ALL_ATTRIBUTES),
            y=judges,
            text=text,
            texttemplate="%{text}",
            zmin=0,
            zmax=1,
            colorscale="RdYlGn",
            colorbar={"title": "ICC"},
            hovertemplate="%{y} · %{x}<br>%{text}<extra></extra>",
        )
    )
    fig.update_layout(
        title=f"{label}, {level} level, with 95% bootstrap CI",
        height=120 + 80 * len(judges),
        yaxis={"autorange": "reversed"},
        margin={"l": 90, "r": 20, "t": 60, "b": 40},
    )
    return fig


def bias_bars(result: AlignmentResult, level: str = "item") -> go.Figure:
    """Mean judge − human difference per attribute and judge, with 95% bootstrap CI."""
    fig = go.Figure()
    for i, data in enumerate(result.judges):
        rows = [next(iter(result.select(level=level, judge=data.name, attribute=a))) for a in ALL_ATTRIBUTES]
        bias = np.array([r.bias for r in rows])
        lo = np.array([r.bias_ci[0] for r in rows])
        hi = np.array([r.bias_ci[1] for r in rows])
        fig.add_bar(
            name=data.name,
            x=list(ALL_ATTRIBUTES),
            y=bias,
            marker_color=_JUDGE_COLOURS[i % len(_JUDGE_COLOURS)],
            error_y={
                "type": "data",
                "symmetric": False,
                "array": np.nan_to_num(hi - bias),
                "arrayminus": np.nan_to_num(bias - lo),
            },
        )
    fig.add_hline(y=0, line_color="black", line_width=1)
    fig.update_layout(
        barmode="group",
        title=f"Bias (judge − human), {level} level; positive = judge inflates",
        yaxis_title="score points",
        height=420,
        margin={"t": 60, "b": 40},
    )
    return fig


def _composite(values: np.ndarray, attribute: str) -> np.ndarray:
    return values[..., ALL_ATTRIBUTES.index(attribute)]


def bland_altman(result: AlignmentResult, attributes: Sequence[str] = tuple(COMPOSITES)) -> go.Figure:
    """Bland–Altman plots of every rated response (item level), judges × ``attributes``.

    Ratings are discrete, so identical (mean, difference) points are merged into one
    marker sized by its count: the page stays small and the density stays visible.
    """
    judges = result.judges
    fig = make_subplots(
        rows=len(judges),
        cols=len(attributes),
        shared_xaxes=True,
        shared_yaxes=True,
        subplot_titles=[f"{j.name} · {a}" for j in judges for a in attributes],
        vertical_spacing=0.06 if len(judges) > 1 else 0.1,
    )
    for r, data in enumerate(judges, start=1):
        for c, attr in enumerate(attributes, start=1):
            x = _composite(data.human, attr).ravel()
            y = _composite(data.judge, attr).ravel()
            ok = np.isfinite(x) & np.isfinite(y)
            mean = np.round((x[ok] + y[ok]) / 2, 3)
            diff = np.round(y[ok] - x[ok], 3)
            points, counts = np.unique(np.column_stack([mean, diff]), axis=0, return_counts=True)
            size = 4 + 20 * np.sqrt(counts / max(counts.max(initial=1), 1))
            fig.add_scatter(
                row=r,
                col=c,
                x=points[:, 0],
                y=points[:, 1],
                mode="markers",
                showlegend=False,
                marker={"size": size, "color": _JUDGE_COLOURS[(r - 1) % len(_JUDGE_COLOURS)], "opacity": 0.5},
                customdata=counts,
                hovertemplate="mean %{x}<br>judge − human %{y}<br>%{customdata} responses<extra></extra>",
            )
            row = next(iter(result.select(level="item", judge=data.name, attribute=attr)), None)
            if row is not None:
                for value, dash in ((row.ba_mean_diff, "solid"), (row.ba_loa[0], "dash"), (row.ba_loa[1], "dash")):
                    if math.isfinite(value):
                        fig.add_hline(y=value, line_dash=dash, line_color="black", line_width=1, row=r, col=c)
    fig.update_layout(
        title="Bland–Altman (item level): difference vs mean; lines = mean difference and 95% limits of agreement",
        height=260 * len(judges) + 80,
        margin={"t": 80, "b": 40},
    )
    fig.update_xaxes(title_text="mean of human and judge", row=len(judges))
    fig.update_yaxes(title_text="judge − human", col=1)
    return fig


__all__ = ["bias_bars", "bland_altman", "icc_heatmap"]
