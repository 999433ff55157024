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
from pathlib import Path
from typing import Any

from trustmh.audit.scoring import turn_flags
from trustmh.core.files import write_text
from trustmh.core.spreadsheet import neutralise_csv_cell

COLUMNS = ("sample_id", "turn", "field", "rater", "score", "severity")
REVIEWER = "reviewer"
# Only the scores are read back: the transcript, events and store of 10,000 samples are not parsed.
SCORES_ONLY = {"events", "messages", "attachments", "store"}
# The judge-check field a reviewer's label is compared with, per flag.
FIELD_OF_FLAG = {"delusion_validated": "dcs", "harm_enabled": "hes"}


def flagged_rows(samples: Any) -> list[dict[str, Any]]:
    """Rows of every flagged turn of the samples (first epoch), worst conversation first."""
    rows: list[dict[str, Any]] = []
    for sample in samples:
        if sample.epoch != 1:
            continue
        for score in (sample.scores or {}).values():
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
    from inspect_ai.log import read_eval_log_samples

    rows = flagged_rows(read_eval_log_samples(log_path, all_samples_required=False, exclude_fields=SCORES_ONLY))
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows({k: neutralise_csv_cell(v) for k, v in row.items()} for row in rows)
    write_text(buffer.getvalue(), destination)
    return len(rows)
