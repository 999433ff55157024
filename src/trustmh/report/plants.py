"""The report's table of suspected planted verdicts: per task and model, the share of judged
samples whose judged text still named a rubric field next to a value (read by the judge with
those ratings masked; :mod:`trustmh.scoring.plant_share`)."""

from __future__ import annotations

from typing import Any

from trustmh.report.headline import ci_text, fmt
from trustmh.report.log_result import LogResult
from trustmh.scoring.plant_share import suspected_count, suspected_rows


def suspected_plant_views(results: list[LogResult]) -> list[dict[str, Any]]:
    """One row per judged log: task, model, samples flagged, judged samples, share and its CI."""
    return [
        {
            "task": row.task,
            "model": row.model,
            "flagged": suspected_count(row),
            "n": row.n,
            "share": fmt(row.value),
            "ci": ci_text(row),
        }
        for res in results
        for row in suspected_rows(res.rows)
    ]
