"""Plotly figures of the report, in the look of :mod:`trustmh.core.plotting` (Okabe–Ito colours,
every series also told apart by marker symbol, line dash or bar pattern, every heatmap cell
carrying its number as text: no meaning rests on colour alone).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

import plotly.graph_objects as go

from trustmh.core.plotting import DASHES, OKABE_ITO, PATTERNS, SYMBOLS, style_layout
from trustmh.report.evidence import row_problem
from trustmh.report.headline import PillarScore, ci_text, fmt
from trustmh.report.matrices import CONFUSION
from trustmh.report.ranking import Leaderboard
from trustmh.scoring.results import MetricRow

GROUPED = re.compile(r"^(?P<base>[^\[\]]+)\[(?P<by>[^=\]]+)=(?P<group>[^\]]+)\]$")
# Grouped metrics that are not drawn: p-values and worst-group labels are listed as a table.
NOT_DRAWN = re.compile(r".*(_p|_worst_group)$")
PRINCIPLE = re.compile(r"^sc[1-5]$")
ORDERED_BY = {"intensity", "level", "severity", "strength", "rate"}


@dataclass
class Style:
    colour: str
    symbol: str
    dash: str
    pattern: str


def styles(models: list[str]) -> dict[str, Style]:
    return {
        m: Style(OKABE_ITO[i % 8], SYMBOLS[i % 8], DASHES[i % len(DASHES)], PATTERNS[i % 8])
        for i, m in enumerate(models)
    }


def row_hover(row: MetricRow) -> str:
    text = f"{row.model}<br>{row.task} · {row.metric} = {fmt(row.value)}<br>95% CI {ci_text(row)}<br>n = {row.n}"
    if row.unparsed:
        text += f"<br>unparsed = {row.unparsed}"
    return text


def pillar_dots(board: Leaderboard, scores: list[PillarScore], style: dict[str, Style]) -> go.Figure:
    """Fewer than three shared pillars: one dot per model and pillar with its CI (normalised)."""
    fig = go.Figure()
    by_key = {(s.model, s.pillar): s for s in scores}
    for row in board.rows:
        x, y, plus, minus, hover = [], [], [], [], []
        for pillar in board.pillars:
            score = by_key.get((row.model, pillar))
            if score is None or score.value is None:
                continue
            value = score.normalise(score.value)
            ends = sorted(score.normalise(v) for v in score.ci) if score.ci else None
            x.append(pillar)
            y.append(value)
            plus.append(None if ends is None else max(ends[1] - value, 0.0))
            minus.append(None if ends is None else max(value - ends[0], 0.0))
            hover.append(f"{row.model}<br>{score.hover()}")
        s = style[row.model]
        fig.add_trace(
            go.Scatter(
                x=x,
                y=y,
                name=row.model,
                mode="markers",
                error_y={"type": "data", "array": plus, "arrayminus": minus, "visible": True},
                marker={"symbol": s.symbol, "size": 11, "color": s.colour},
                hovertext=hover,
                hoverinfo="text",
            )
        )
    style_layout(fig, "Pillar scores with 95% CIs (0 = worst, 1 = best)", scattermode="group")
    fig.update_yaxes(range=[-0.02, 1.02], title="normalised score")
    fig.update_xaxes(type="category", title="pillar")
    return fig


def _grouped_rows(rows: Iterable[MetricRow]) -> dict[tuple[str, str, str], list[tuple[str, MetricRow]]]:
    """Per (task, name, by), each group's row; a value that is no finding (mostly unparsed, too
    few parsed items: :func:`~trustmh.report.headline.row_problem`) is not drawn — two parsed
    answers against four drew a model "improving" under typos. :func:`left_out_points` says why."""
    groups: dict[tuple[str, str, str], list[tuple[str, MetricRow]]] = {}
    for row in rows:
        if CONFUSION.match(row.metric):
            continue
        found = GROUPED.match(row.metric)
        if found and not NOT_DRAWN.match(found["base"]) and (row.value is None or row_problem(row) is None):
            groups.setdefault((row.task, found["base"], found["by"]), []).append((found["group"], row))
    return groups


def left_out_points(rows: list[MetricRow]) -> list[str]:
    """One line per group value a chart leaves out, with the reason (the summary's † rule)."""
    notes = []
    for row in rows:
        found = GROUPED.match(row.metric)
        drawn = found and not NOT_DRAWN.match(found["base"]) and not CONFUSION.match(row.metric)
        problem = row_problem(row) if drawn and row.value is not None else None
        if problem is not None:
            notes.append(f"{row.task} · {row.model}: {row.metric} = {fmt(row.value)} not drawn — {problem}.")
    return notes


def _numeric(labels: list[str]) -> bool:
    try:
        [float(x) for x in labels]
    except ValueError:
        return False
    return True


def flat(points: list[tuple[str, MetricRow]]) -> bool:
    """Every value is 0 (or missing): as bars, an empty frame (whiskers alone, or an axis plotly
    centres on 0, −1…1) that reads as a result; the table has the values and CIs."""
    return all(not r.value for _, r in points)


def _series_figure(
    title: str, x_title: str, points: list[tuple[str, MetricRow]], style: dict[str, Style], as_line: bool
) -> go.Figure | None:
    """``None`` when no point has a value, or (bars) when every bar has zero height: a chart
    without bars says nothing, the page shows a note instead (:func:`flat`)."""
    if all(r.value is None for _, r in points) or (not as_line and flat(points)):
        return None
    labels = list(dict.fromkeys(g for g, _ in points))
    if _numeric(labels):
        labels.sort(key=float)
    fig = go.Figure()
    for model in style:
        mine = {g: r for g, r in points if r.model == model}
        if not mine:
            continue
        rows = [mine.get(g) for g in labels]
        y = [r.value if r else None for r in rows]
        plus = [(r.ci_high - r.value) if r and r.value is not None and r.ci_high is not None else None for r in rows]
        minus = [(r.value - r.ci_low) if r and r.value is not None and r.ci_low is not None else None for r in rows]
        hover = [row_hover(r) if r else f"{model}: missing" for r in rows]
        error = {"type": "data", "array": plus, "arrayminus": minus, "visible": True}
        s = style[model]
        if as_line:
            fig.add_trace(
                go.Scatter(
                    x=labels,
                    y=y,
                    name=model,
                    mode="lines+markers",
                    error_y=error,
                    hovertext=hover,
                    hoverinfo="text",
                    line={"color": s.colour, "dash": s.dash},
                    marker={"symbol": s.symbol, "size": 9, "color": s.colour},
                )
            )
        else:
            fig.add_trace(
                go.Bar(
                    x=labels,
                    y=y,
                    name=model,
                    error_y=error,
                    hovertext=hover,
                    hoverinfo="text",
                    marker={
                        "color": s.colour,
                        "pattern": {"shape": s.pattern, "fgcolor": "#ffffff" if s.pattern else None},
                    },
                )
            )
    style_layout(fig, title, barmode="group")
    fig.update_xaxes(title=x_title, type="category")
    return fig


def grouped_figures(rows: list[MetricRow], style: dict[str, Style]) -> list[tuple[str, go.Figure | None]]:
    """``<name>[<by>=<group>]`` metrics: one chart per (task, name, by), lines if ordered."""
    figures = []
    for (task, base, by), points in _grouped_rows(rows).items():
        as_line = by in ORDERED_BY or _numeric([g for g, _ in points])
        figures.append(
            (f"{task}: {base} by {by}", _series_figure(f"{task}: {base} by {by}", by, points, style, as_line))
        )
    return figures


def principle_figures(rows: list[MetricRow], style: dict[str, Style]) -> list[tuple[str, go.Figure | None]]:
    """APA principle scores ``sc1``..``sc5`` per task."""
    by_task: dict[str, list[tuple[str, MetricRow]]] = {}
    for row in rows:
        if PRINCIPLE.match(row.metric):
            by_task.setdefault(row.task, []).append((row.metric, row))
    return [
        (
            f"{task}: APA principles",
            _series_figure(f"{task}: APA principle scores (sc1–sc5)", "principle", points, style, False),
        )
        for task, points in by_task.items()
    ]


def headline_figure(pillar: str, scores: list[PillarScore], style: dict[str, Style]) -> go.Figure | None:
    """Per task, the ranked headline value of each model (strict where reported) with its CI.
    Values left out of the ranking (too few items, no variance, a base at chance) are not drawn:
    a 1.0 bar from one item or a zero bar with its whiskers read as results (issue 30); ``None``
    when nothing is left (the page says why in a line)."""
    points = [
        (row.task, row)
        for score in scores
        if score.pillar == pillar
        for row, part in zip(score.ranked_rows(), score.parts, strict=True)
        if part.excluded is None
    ]
    if not points:
        return None
    headline = scores[0].headline
    better = "higher" if headline.higher_is_better else "lower"
    label = " + ".join(dict.fromkeys(score.label for score in scores))
    return _series_figure(f"{pillar}: {label} ({better} is better)", "task", points, style, False)
