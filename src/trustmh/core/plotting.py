"""The look every trustmh chart shares (the report's and ``trustmh align --html``'s).

Colours are Okabe–Ito (colour-blind safe) and every series is also told apart by marker
symbol, line dash or bar pattern; every heatmap cell carries its number as text, so no
meaning rests on colour alone.
"""

from __future__ import annotations

import plotly.graph_objects as go

OKABE_ITO = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
SYMBOLS = ("circle", "square", "diamond", "triangle-up", "x", "star", "cross", "hexagon")
DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
PATTERNS = ("", "/", ".", "x", "\\", "+", "-", "|")
# Sequential scale readable with any colour vision; cell text carries the value anyway.
HEAT_SCALE = "Cividis"


def share_heatmap(z: list, x: list[str], y: list[str], text: list, hover: list, colorbar: dict) -> go.Figure:
    """A heatmap of shares on a fixed 0–1 scale (comparable across charts), values printed in
    the cells and the full reading on hover."""
    return go.Figure(
        go.Heatmap(
            z=z,
            x=x,
            y=y,
            zmin=0,
            zmax=1,
            colorscale=HEAT_SCALE,
            text=text,
            texttemplate="%{text}",
            hovertext=hover,
            hoverinfo="text",
            colorbar=colorbar,
        )
    )


# Chinese labels (PsyEval, the Chinese EmoBench and dialogue items) need a CJK-capable font:
# without one in the stack a browser may draw them as boxes (issue 30). Noto Sans CJK is
# Debian's fonts-noto-cjk; the others are the usual macOS / Windows ones.
CJK_FONTS = '"Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "PingFang SC", "Microsoft YaHei"'
FONT_FAMILY = f'system-ui, -apple-system, "Segoe UI", Roboto, {CJK_FONTS}, sans-serif'


def style_layout(fig: go.Figure, title: str, height: int = 380, top: int = 70, **extra: object) -> go.Figure:
    """Shared look. ``top`` leaves room above the plot for the legend *below* plotly's mode
    bar (which sits in the top-right corner); charts without a legend need less."""
    fig.update_layout(
        title={"text": title},
        template="simple_white",
        height=height,
        autosize=True,
        margin={"l": 60, "r": 20, "t": top, "b": 60},
        # Legend above the plot: below it, it collides with long rotated tick labels.
        legend={"orientation": "h", "x": 0, "y": 1.02, "yanchor": "bottom"},
        font={"family": FONT_FAMILY, "size": 12},
        **extra,
    )
    return fig
