"""The alignment section, from the JSON written by ``trustmh align --json``.

Expected shape: ``{"rows": [{"judge", "attribute", "level", "n", "icc_c1", "icc_c1_ci":
[lo, hi], "icc_a1", "icc_a1_ci", "ci_width", "category", "bias", "ba_mean_diff"?,
"ba_loa"?: [lo, hi]}], "krippendorff_alpha": {...}}``. Unknown keys are ignored and
missing optional ones leave their chart out.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import plotly.graph_objects as go

from trustmh.errors import UserError
from trustmh.report.figures import OKABE_ITO, PATTERNS, SYMBOLS, share_heatmap, style_layout
from trustmh.report.headline import fmt

CATEGORY_NAMES = {"GR": "good reliability", "MR": "moderate reliability", "PR": "poor reliability"}


@dataclass
class Alignment:
    path: str
    rows: list[dict[str, Any]]
    alpha: dict[str, Any] = field(default_factory=dict)


def load_alignment(path: Path) -> Alignment:
    try:
        payload = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"{path}: no such alignment file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise UserError(f"{path}: not a JSON file from `trustmh align --json` ({error})") from None
    rows = payload.get("rows") if isinstance(payload, dict) else None
    if not isinstance(rows, list) or not all(isinstance(r, dict) and "judge" in r and "attribute" in r for r in rows):
        raise UserError(
            f'{path}: expected {{"rows": [{{"judge", "attribute", ...}}]}} as written by `trustmh align --json`'
        )
    alpha = payload.get("krippendorff_alpha") or {}
    return Alignment(str(path), rows, alpha if isinstance(alpha, dict) else {})


def _ci(value: Any) -> str:
    if isinstance(value, (list, tuple)) and len(value) == 2:
        return f"[{fmt(_number(value[0]))}, {fmt(_number(value[1]))}]"
    return "(no CI)"


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _icc_key(rows: list[dict[str, Any]]) -> str:
    return "icc_a1" if any(r.get("icc_a1") is not None for r in rows) else "icc_c1"


def printed_category(row: dict[str, Any], key: str) -> str | None:
    """GR/MR/PR from the CI width of the ICC the cell prints (``key``), with MentalBench's
    thresholds (:func:`trustmh.align.analysis.category`); the file's own ``category`` is
    computed from ICC(C,1) and would mislabel an ICC(A,1) cell."""
    from trustmh.align.analysis import category

    bounds = _interval(row.get(key + "_ci"))
    return None if bounds is None else category(bounds[1] - bounds[0])


def icc_heatmaps(alignment: Alignment) -> list[tuple[str, go.Figure]]:
    """Judge × attribute ICC per level; a cell shows the ICC and its GR/MR/PR category (from
    the CI of that same ICC), the CI and the other ICC form are on hover (three lines of text
    per cell overlapped on narrow screens)."""
    key = _icc_key(alignment.rows)
    label = "ICC(A,1)" if key == "icc_a1" else "ICC(C,1)"
    figures = []
    levels = list(dict.fromkeys(str(r.get("level", "all")) for r in alignment.rows))
    for level in levels:
        rows = [r for r in alignment.rows if str(r.get("level", "all")) == level]
        judges = list(dict.fromkeys(str(r["judge"]) for r in rows))
        attributes = list(dict.fromkeys(str(r["attribute"]) for r in rows))
        cell = {(str(r["judge"]), str(r["attribute"])): r for r in rows}
        z, text, hover = [], [], []
        for judge in judges:
            line = [cell.get((judge, a)) for a in attributes]
            z.append([_number(r.get(key)) if r else None for r in line])
            categories = [printed_category(r, key) if r else None for r in line]
            text.append(
                [
                    f"{fmt(_number(r.get(key)), 2)}<br>{c or '—'}" if r else "—"
                    for r, c in zip(line, categories, strict=True)
                ]
            )
            hover.append(
                [
                    (
                        f"{judge} · {a}<br>{label} {fmt(_number(r.get(key)))} 95% CI {_ci(r.get(key + '_ci'))}<br>"
                        f"category {c or '—'} ({CATEGORY_NAMES.get(str(c), 'CI unknown')}, from this CI's width)<br>"
                        f"ICC(C,1) {fmt(_number(r.get('icc_c1')))} {_ci(r.get('icc_c1_ci'))}<br>"
                        f"ICC(A,1) {fmt(_number(r.get('icc_a1')))} {_ci(r.get('icc_a1_ci'))}<br>"
                        f"n = {r.get('n')}<br>bias {fmt(_number(r.get('bias')))}"
                    )
                    if r
                    else f"{judge} · {a}: missing"
                    for a, r, c in zip(attributes, line, categories, strict=True)
                ]
            )
        # colour-bar title beside the bar: on top it collided with the "1" tick (browser test)
        fig = share_heatmap(z, attributes, judges, text, hover, {"title": {"text": label, "side": "right"}})
        style_layout(fig, f"Judge–human agreement, {label}, level {level}", height=260 + 40 * len(judges), top=40)
        fig.update_xaxes(tickangle=-30)
        fig.update_yaxes(autorange="reversed")
        figures.append((f"icc-{level}", fig))
    return figures


def _interval(value: Any) -> tuple[float, float] | None:
    """``[lo, hi]`` with both ends known (``trustmh align`` writes NaN as null)."""
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, (int, float)) for v in value):
        return float(value[0]), float(value[1])
    return None


def _forest(
    alignment: Alignment, title: str, value_key: str, interval_key: str, interval_label: str, points: bool
) -> go.Figure | None:
    rows = [r for r in alignment.rows if _number(r.get(value_key)) is not None]
    if not rows:
        return None
    fig = go.Figure()
    for i, judge in enumerate(dict.fromkeys(str(r["judge"]) for r in rows)):
        mine = [r for r in rows if str(r["judge"]) == judge]
        labels = [f"{r['attribute']} ({r.get('level', 'all')})" for r in mine]
        values = [float(r[value_key]) for r in mine]  # rows were filtered on a numeric value
        bounds = [_interval(r.get(interval_key)) for r in mine]
        error = {
            "type": "data",
            "array": [None if b is None else b[1] - v for b, v in zip(bounds, values, strict=True)],
            "arrayminus": [None if b is None else v - b[0] for b, v in zip(bounds, values, strict=True)],
            "visible": True,
        }
        hover = [
            f"{judge} · {name}<br>{value_key} = {fmt(v)}<br>{interval_label} {_ci(r.get(interval_key))}<br>n = {r.get('n')}"
            for name, v, r in zip(labels, values, mine, strict=True)
        ]
        if points:  # a forest plot: the mean difference as a point between its limits
            fig.add_trace(
                go.Scatter(
                    x=labels,
                    y=values,
                    name=judge,
                    mode="markers",
                    error_y=error,
                    hovertext=hover,
                    hoverinfo="text",
                    marker={"color": OKABE_ITO[i % 8], "symbol": SYMBOLS[i % 8], "size": 10},
                )
            )
        else:
            fig.add_trace(
                go.Bar(
                    x=labels,
                    y=values,
                    name=judge,
                    error_y=error,
                    hovertext=hover,
                    hoverinfo="text",
                    marker={"color": OKABE_ITO[i % 8], "pattern": {"shape": PATTERNS[i % 8], "fgcolor": "#ffffff"}},
                )
            )
    # Group points like bars so judges sharing a category do not hide each other.
    style_layout(fig, title, barmode="group", scattermode="group")
    fig.add_hline(y=0, line={"color": "#444", "width": 1})
    fig.update_xaxes(tickangle=-30, type="category")
    return fig


def bias_figure(alignment: Alignment) -> go.Figure | None:
    return _forest(
        alignment,
        "Judge bias: judge − human mean with 95% CI (0 = unbiased)",
        "bias",
        "bias_ci",
        "95% CI",
        points=False,
    )


def bland_altman_figure(alignment: Alignment) -> go.Figure | None:
    return _forest(
        alignment,
        "Bland–Altman: mean difference with 95% limits of agreement",
        "ba_mean_diff",
        "ba_loa",
        "limits of agreement",
        points=True,
    )
