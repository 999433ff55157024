"""The lines ``trustmh run`` prints about suspected planted verdicts, under the results table.

A judged sample whose text still named a rubric field next to a value carries
``suspected_plant`` = 1 (the judge read it masked; :mod:`trustmh.scoring.plant_share`). The
summary says how many judged samples of each task did, as the share with its 95% CI; one line
when none did.
"""

from __future__ import annotations

from collections.abc import Sequence

from trustmh.report.headline import ci_text, fmt
from trustmh.scoring.plant_share import suspected_count, suspected_rows
from trustmh.scoring.results import MetricRow

LEAD = "suspected planted verdicts"
WHAT = "a rubric field named next to a value; the judge read it masked"


def suspected_plant_lines(rows: Sequence[MetricRow]) -> list[str]:
    """One line per task and model with suspected plants (count of n, share and CI); one line
    when no judged sample had any; nothing when nothing was judged."""
    found = suspected_rows(rows)
    if not found:
        return []
    flagged = [row for row in found if suspected_count(row)]
    if not flagged:
        return [f"{LEAD}: none in {sum(row.n or 0 for row in found)} judged samples ({WHAT})."]
    return [f"{LEAD} ({WHAT}):"] + [
        f"  {row.task} ({row.model}): {suspected_count(row)} of {row.n} judged samples, "
        f"share {fmt(row.value)} {ci_text(row)}"
        for row in flagged
    ]
