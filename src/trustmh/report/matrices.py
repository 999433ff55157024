"""Confusion matrices and the jailbreak refusal grid as HTML tables, not heatmaps.

A table carries its numbers as text (no meaning rests on colour), needs no chart library
and has room for what a heatmap cannot show: the answers that named no class. Each gold
row ends with its **unparsed** count (from ``recall[gold=<c>]``, whose unparsed are that
class's unreadable answers), so a matrix of four parsed answers out of twenty says so.
Cells are shaded by their share of the row on a fixed 0–1 scale.
"""

from __future__ import annotations

import re
from typing import Any

from trustmh.report.headline import fmt
from trustmh.report.log_result import LogResult

CONFUSION = re.compile(r"^(?P<base>\w*confusion\w*)\[gold=(?P<gold>[^,\]]+),\s*pred=(?P<pred>[^\]]+)\]$")
RECALL = re.compile(r"^recall\[gold=(?P<gold>[^\]]+)\]$")
# Above this share the shade is dark enough that the cell's text turns white.
DARK = 0.55


def _cell(share: float | None, text: str, title: str) -> dict[str, Any]:
    return {
        "text": text,
        "title": title,
        "shade": None if share is None else round(share, 3),
        "dark": (share or 0) > DARK,
    }


def _unparsed_by_gold(result: LogResult) -> dict[str, int]:
    found = {}
    for row in result.rows:
        match = RECALL.match(row.metric)
        if match and row.unparsed is not None:
            found[match["gold"].strip()] = int(row.unparsed)
    return found


def confusion_tables(result: LogResult) -> list[dict[str, Any]]:
    """One table per ``<base>[gold=X,pred=Y]`` family: rows gold, columns predicted, then unparsed.
    ``empty``: no answer counted at all (neither parsed nor unparsed), shown as a line instead."""
    matrices: dict[str, dict[tuple[str, str], float]] = {}
    for row in result.rows:
        found = CONFUSION.match(row.metric)
        if found and row.value is not None:
            matrices.setdefault(found["base"], {})[(found["gold"].strip(), found["pred"].strip())] = row.value
    unparsed = _unparsed_by_gold(result)
    tables = []
    for base, cells in matrices.items():
        labels = list(dict.fromkeys([g for g, _ in cells] + [p for _, p in cells]))
        rows: list[dict[str, Any]] = []
        for gold in labels:
            counts = [cells.get((gold, pred), 0.0) for pred in labels]
            total = sum(counts)
            missed = unparsed.get(gold)
            line = []
            for pred, count in zip(labels, counts, strict=True):
                share = count / total if total else None
                text = "—" if share is None else f"{share:.2f}"
                line.append(
                    _cell(share, text, f"gold {gold} → predicted {pred}: {fmt(count, 0)} of {fmt(total, 0)} parsed")
                )
            rows.append(
                {"gold": gold, "cells": line, "parsed": fmt(total, 0), "unparsed": "—" if missed is None else missed}
            )
        parsed_any = any(c["shade"] is not None for r in rows for c in r["cells"])
        unparsed_any = any(isinstance(r["unparsed"], int) and r["unparsed"] > 0 for r in rows)
        tables.append(
            {
                "id": f"matrix-{result.key}-{base}",
                "title": f"{result.task} · {result.model}: {base} (rows = gold; share of the row's parsed answers)",
                "columns": labels,
                "rows": rows,
                "empty": not parsed_any and not unparsed_any,
                "name": base,
            }
        )
    return tables


def rta_grid_table(result: LogResult) -> dict[str, Any] | None:
    """Refuse-to-answer rate by jailbreak method (rows) × objective (columns), with n per cell."""
    if not result.rta_grid:
        return None
    methods = sorted({m for m, _ in result.rta_grid})
    objectives = sorted({o for _, o in result.rta_grid})
    rows = []
    for method in methods:
        line = []
        for objective in objectives:
            stat = result.rta_grid.get((method, objective))
            if stat is None or stat.mean is None:  # most cells of a sparse grid: kept light
                line.append(_cell(None, "—", ""))
                continue
            text = f"{stat.mean:.2f}"
            line.append(
                _cell(
                    stat.mean, f"{text} n={stat.n}", f"method {method}, objective {objective}: RtA {text}, n = {stat.n}"
                )
            )
        rows.append({"gold": method, "cells": line, "parsed": None, "unparsed": None})
    return {
        "id": f"matrix-{result.key}-rta",
        "title": f"{result.task} · {result.model}: refuse-to-answer rate by jailbreak method × objective",
        "columns": objectives,
        "rows": rows,
        "empty": False,
        "name": "rta",
    }
