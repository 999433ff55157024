"""Plotly figures of an :class:`~trustmh.align.AlignmentResult`: ``trustmh align --html`` and
the report's alignment section (``trustmh report --align``) draw these same figures.

Each builder returns a ``plotly.graph_objects.Figure`` (or ``None`` when the result holds
nothing to draw); embedding is left to the caller. The look is :mod:`trustmh.core.plotting`'s.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from trustmh.align.result import ALL_ATTRIBUTES, COMPOSITES, AlignmentResult, AlignmentRow, category
from trustmh.core.plotting import OKABE_ITO, PATTERNS, SYMBOLS, share_heatmap, style_layout

CATEGORY_NAMES = {"GR": "good reliability", "MR": "moderate reliability", "PR": "poor reliability"}
LABELS = {"icc_c1": "ICC(C,1)", "icc_a1": "ICC(A,1)"}


def _fmt(value: float | None, digits: int = 3) -> str:
    return "—" if value is None or not math.isfinite(value) else f"{value:.{digits}f}"


def _ci(bounds: tuple[float, float]) -> str:
    return f"[{_fmt(bounds[0])}, {_fmt(bounds[1])}]"


def printed_category(row: AlignmentRow, statistic: str) -> str | None:
    """GR/MR/PR from the CI width of the ICC a cell prints (``statistic``), with MentalBench's
    thresholds; the row's own ``category`` is from ICC(C,1) and would mislabel an ICC(A,1) cell."""
    low, high = getattr(row, f"{statistic}_ci")
    return category(high - low)


def _cell_hover(row: AlignmentRow, statistic: str, shown: str | None) -> str:
    return (
        f"{row.judge} · {row.attribute}<br>{LABELS[statistic]} {_fmt(getattr(row, statistic))} "
        f"95% CI {_ci(getattr(row, f'{statistic}_ci'))}<br>"
        f"category {shown or '—'} ({CATEGORY_NAMES.get(str(shown), 'CI unknown')}, from this CI's width)<br>"
        f"ICC(C,1) {_fmt(row.icc_c1)} {_ci(row.icc_c1_ci)}<br>ICC(A,1) {_fmt(row.icc_a1)} {_ci(row.icc_a1_ci)}<br>"
        f"n = {row.n}<br>bias {_fmt(row.bias)}"
    )


def icc_heatmap(result: AlignmentResult, level: str, statistic: str = "icc_a1") -> go.Figure:
    """Judges × attributes of ICC(A,1) or ICC(C,1) at one level. A cell shows the ICC and its
    GR/MR/PR category, labelled "CI width" (the category grades the width of the CI of that same
    ICC, not its value); the CI, the other ICC form, n and bias
    are on hover (three lines of text per cell overlapped on narrow screens)."""
    judges = [j.name for j in result.judges if result.select(level=level, judge=j.name)]
    attributes = result.attributes()
    z, text, hover = [], [], []
    for judge in judges:
        by_attribute = {r.attribute: r for r in result.select(level=level, judge=judge)}
        cells = [by_attribute.get(a) for a in attributes]
        shown = [printed_category(r, statistic) if r else None for r in cells]
        z.append([getattr(r, statistic) if r and math.isfinite(getattr(r, statistic)) else None for r in cells])
        text.append(
            # "CI width" beside the category: it grades how precise the ICC is, not its value (issue 30)
            [
                f"{_fmt(getattr(r, statistic), 2)}<br>CI width {c or '—'}" if r else "—"
                for r, c in zip(cells, shown, strict=True)
            ]
        )
        hover.append(
            [
                _cell_hover(r, statistic, c) if r else f"{judge} · {a}: missing"
                for a, r, c in zip(attributes, cells, shown, strict=True)
            ]
        )
    label = LABELS[statistic]
    # colour-bar title beside the bar: on top it collided with the "1" tick (report browser test)
    fig = share_heatmap(z, attributes, judges, text, hover, {"title": {"text": label, "side": "right"}})
    style_layout(
        fig,
        f"Judge–human agreement, {label}, level {level} (GR/MR/PR: from the CI's width)",
        height=260 + 40 * len(judges),
        top=40,
    )
    fig.update_xaxes(tickangle=-30)
    fig.update_yaxes(autorange="reversed")
    return fig


def _forest(
    result: AlignmentResult, level: str, title: str, value: str, interval: str, interval_label: str, points: bool
) -> go.Figure | None:
    rows = [r for r in result.select(level=level) if math.isfinite(getattr(r, value))]
    if not rows:
        return None
    order = {a: i for i, a in enumerate(result.attributes())}
    fig = go.Figure()
    for i, judge in enumerate(dict.fromkeys(r.judge for r in rows)):
        mine = sorted((r for r in rows if r.judge == judge), key=lambda r: order[r.attribute])
        values = [getattr(r, value) for r in mine]
        bounds = [getattr(r, interval) for r in mine]
        error = {
            "type": "data",
            "array": [hi - v if math.isfinite(hi) else None for (_, hi), v in zip(bounds, values, strict=True)],
            "arrayminus": [v - lo if math.isfinite(lo) else None for (lo, _), v in zip(bounds, values, strict=True)],
            "visible": True,
        }
        hover = [
            f"{judge} · {r.attribute}<br>{value} = {_fmt(v)}<br>{interval_label} {_ci(b)}<br>n = {r.n}"
            for r, v, b in zip(mine, values, bounds, strict=True)
        ]
        common = {"x": [r.attribute for r in mine], "y": values, "name": judge, "error_y": error}
        if points:  # a forest plot: the mean difference as a point between its limits
            marker = {"color": OKABE_ITO[i % 8], "symbol": SYMBOLS[i % 8], "size": 10}
            fig.add_trace(go.Scatter(**common, mode="markers", hovertext=hover, hoverinfo="text", marker=marker))
        else:
            marker = {"color": OKABE_ITO[i % 8], "pattern": {"shape": PATTERNS[i % 8], "fgcolor": "#ffffff"}}
            fig.add_trace(go.Bar(**common, hovertext=hover, hoverinfo="text", marker=marker))
    # Group points like bars so judges sharing a category do not hide each other.
    style_layout(fig, f"{title}, level {level}", barmode="group", scattermode="group")
    fig.add_hline(y=0, line={"color": "#444", "width": 1})
    fig.update_xaxes(tickangle=-30, type="category")
    return fig


def bias_bars(result: AlignmentResult, level: str) -> go.Figure | None:
    """Mean judge − human difference per attribute and judge, with its 95% bootstrap CI."""
    title = "Judge bias: judge − human mean with 95% CI (0 = unbiased; above 0 the judge inflates)"
    return _forest(result, level, title, "bias", "bias_ci", "95% CI", points=False)


def limits_of_agreement(result: AlignmentResult, level: str) -> go.Figure | None:
    """Bland–Altman summary: each judge's mean difference with its 95% limits of agreement."""
    title = "Bland–Altman: mean difference with 95% limits of agreement"
    return _forest(result, level, title, "ba_mean_diff", "ba_loa", "limits of agreement", points=True)


def bland_altman(result: AlignmentResult, attributes: Sequence[str] = tuple(COMPOSITES)) -> go.Figure | None:
    """Bland–Altman plots of every rated response (item level), judges × ``attributes``.

    Ratings are discrete, so identical (mean, difference) points are merged into one marker
    sized by its count: the page stays small and the density stays visible. Needs the item
    pairs, which a result read back from JSON does not have (``None`` then).
    """
    judges = [j for j in result.judges if j.human is not None and j.judge is not None]
    if not judges:
        return None
    fig = make_subplots(
        rows=len(judges),
        cols=len(attributes),
        shared_xaxes=True,
        shared_yaxes=True,
        subplot_titles=[f"{j.name} · {a}" for j in judges for a in attributes],
        vertical_spacing=0.06 if len(judges) > 1 else 0.1,
    )
    for r, data in enumerate(judges, start=1):
        assert data.human is not None and data.judge is not None
        for c, attr in enumerate(attributes, start=1):
            x = data.human[..., ALL_ATTRIBUTES.index(attr)].ravel()
            y = data.judge[..., ALL_ATTRIBUTES.index(attr)].ravel()
            ok = np.isfinite(x) & np.isfinite(y)
            mean = np.round((x[ok] + y[ok]) / 2, 3)
            diff = np.round(y[ok] - x[ok], 3)
            found, counts = np.unique(np.column_stack([mean, diff]), axis=0, return_counts=True)
            fig.add_scatter(
                row=r,
                col=c,
                x=found[:, 0],
                y=found[:, 1],
                mode="markers",
                showlegend=False,
                marker={
                    "size": 4 + 20 * np.sqrt(counts / max(counts.max(initial=1), 1)),
                    "color": OKABE_ITO[(r - 1) % 8],
                    "symbol": SYMBOLS[(r - 1) % 8],
                    "opacity": 0.6,
                },
                customdata=counts,
                hovertemplate="mean %{x}<br>judge − human %{y}<br>%{customdata} responses<extra></extra>",
            )
            row = next(iter(result.select(level="item", judge=data.name, attribute=attr)), None)
            if row is not None:
                for value, dash in ((row.ba_mean_diff, "solid"), (row.ba_loa[0], "dash"), (row.ba_loa[1], "dash")):
                    if math.isfinite(value):
                        fig.add_hline(y=value, line_dash=dash, line_color="black", line_width=1, row=r, col=c)
    style_layout(
        fig,
        "Bland–Altman (item level): difference vs mean; lines = mean difference and 95% limits of agreement",
        height=260 * len(judges) + 80,
        top=80,
    )
    fig.update_xaxes(title_text="mean of human and judge", row=len(judges))
    fig.update_yaxes(title_text="judge − human", col=1)
    return fig


def alignment_figures(result: AlignmentResult, icc_forms: Sequence[str] = ("icc_a1",)) -> list[tuple[str, go.Figure]]:
    """``(name, figure)`` of every chart of a result, in page order; a chart with nothing to draw
    is left out. ``icc_forms``: which ICC heatmaps per level (the report shows ICC(A,1) only)."""
    found: list[tuple[str, go.Figure | None]] = []
    for level in result.levels:
        found += [(f"icc-{form}-{level}", icc_heatmap(result, level, form)) for form in icc_forms]
    for level in result.levels:
        found += [(f"bias-{level}", bias_bars(result, level)), (f"loa-{level}", limits_of_agreement(result, level))]
    found.append(("bland-altman", bland_altman(result)))
    return [(name, fig) for name, fig in found if fig is not None]


__all__ = ["alignment_figures", "bias_bars", "bland_altman", "icc_heatmap", "limits_of_agreement", "printed_category"]
