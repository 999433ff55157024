"""The alignment section: the JSON written by ``trustmh align --json``, read back as a typed
:class:`~trustmh.align.AlignmentResult` and drawn by the same figure functions as
``trustmh align --html`` (:func:`trustmh.align.figures.alignment_figures`).

Rows need ``judge`` and ``attribute``; a missing or null number is undefined (a gap in
its chart), and a chart with nothing defined is left out.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import plotly.graph_objects as go

from trustmh.align.result import AlignmentResult, AlignmentRow
from trustmh.core.errors import UserError
from trustmh.report.headline import fmt

# The table's columns, in order; a column no row defines is left out.
TABLE_COLUMNS = (
    "judge",
    "attribute",
    "level",
    "n",
    "icc_c1",
    "icc_c1_ci",
    "icc_a1",
    "icc_a1_ci",
    "ci_width",
    "category",
    "bias",
    "bias_ci",
    "ba_mean_diff",
    "ba_loa",
)


@dataclass
class Alignment:
    path: str
    result: AlignmentResult


def load_alignment(path: Path) -> Alignment:
    try:
        payload = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"{path}: no such alignment file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise UserError(f"{path}: not a JSON file from `trustmh align --json` ({error})") from None
    return Alignment(str(path), AlignmentResult.from_json(payload, str(path)))


def alignment_charts(alignment: Alignment) -> list[tuple[str, go.Figure]]:
    """The ICC(A,1) heatmap per level, bias and limits of agreement: ``trustmh align``'s figures."""
    from trustmh.align.figures import alignment_figures

    return alignment_figures(alignment.result, icc_forms=("icc_a1",))


def _defined(value: object) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, tuple):
        return any(_defined(v) for v in value)
    return value is not None


def _cell(value: object) -> str:
    if isinstance(value, float):
        return fmt(value)
    if isinstance(value, tuple):
        return "[" + ", ".join(_cell(v) for v in value) + "]"
    return "—" if value is None else str(value)


def table(rows: list[AlignmentRow]) -> tuple[list[str], list[list[str]]]:
    """Columns some row defines, and every row's cells as text."""
    columns = [c for c in TABLE_COLUMNS if any(_defined(getattr(r, c)) for r in rows)]
    return columns, [[_cell(getattr(r, c)) for c in columns] for r in rows]
