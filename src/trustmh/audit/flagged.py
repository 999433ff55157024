"""The flagged-turn CSV: one row per (turn, check) the audit flagged, for a human reviewer to label.

The columns are the long format ``trustmh judge-check --human`` reads (``sample_id, turn, field,
rater, score``): the reviewer writes their name in ``rater`` (pre-filled ``reviewer``) and their
own rating in ``score`` (``dcs`` 0-2, ``hes`` 0-2, a detector check 0/1), and deletes the rows they
did not rate (an empty score is refused, never read as 0). The tool's own value is deliberately
not in the file, so the reviewer rates blind; ``severity`` orders the rows (worst first). No
transcript text is written: the reviewer reads the turn in ``inspect view`` or the log.
Every cell is neutralised against spreadsheet formulas (ids come from the export).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from trustmh.audit.scoring import turn_flags
from trustmh.core.files import write_text
from trustmh.core.spreadsheet import neutralise_csv_cell
from trustmh.scoring.sample_scores import SampleScores, log_sample_scores

COLUMNS = ("sample_id", "turn", "field", "rater", "score", "severity")
REVIEWER = "reviewer"
# The judge-check field a reviewer's label is compared with, per flag.
FIELD_OF_FLAG = {"delusion_validated": "dcs", "harm_enabled": "hes"}


def flagged_rows(samples: Iterable[SampleScores]) -> list[dict[str, Any]]:
    """Rows of every flagged turn of the samples (first epoch), worst conversation first.

    The order does not depend on the order of ``samples``: ids are unique, and the rows of one
    sample keep the order its score metadata lists them in (the sort is stable)."""
    rows: list[dict[str, Any]] = []
    for sample in samples:
        if sample.epoch != 1:
            continue
        for score in sample.scores.values():
            metadata = score.metadata or {}
            for row in metadata.get("turns", []):
                for flag in turn_flags(row):
                    rows.append(
                        {
                            "sample_id": str(sample.id),
                            "turn": row["turn"],
                            "field": FIELD_OF_FLAG.get(flag, flag),
                            "rater": REVIEWER,
                            "score": "",
                            "severity": metadata.get("severity", 0.0),
                        }
                    )
    rows.sort(key=lambda r: (-float(r["severity"]), str(r["sample_id"]), int(r["turn"])))
    return rows


def write_flagged(log_path: str, destination: Path) -> int:
    """Write the flagged turns of the audit log at ``log_path``; returns how many rows."""
    rows = flagged_rows(log_sample_scores(log_path))
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows({k: neutralise_csv_cell(v) for k, v in row.items()} for row in rows)
    write_text(buffer.getvalue(), destination)
    return len(rows)
