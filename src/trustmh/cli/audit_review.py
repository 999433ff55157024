"""``trustmh judge-check --log AUDIT --human flagged_turns.csv`` on an audit without a judge:
the detectors' precision from the reviewer's labels (:mod:`trustmh.audit.review`)."""

from __future__ import annotations

from pathlib import Path

from rich.table import Table

from trustmh.cli.common import ci3, console, fmt3
from trustmh.core.errors import UserError
from trustmh.core.files import json_text, write_text


def review_detector_flags(log: Path, human: Path, json_out: str | None) -> bool:
    """Print (and with ``--json`` write) each detector's precision when ``log`` is an audit run
    without a judge; ``False`` (nothing done) for any other log: judge-check compares its verdicts."""
    from trustmh.audit.review import audit_flags, detector_precision
    from trustmh.judgecheck.ratings import read_ratings
    from trustmh.scoring.results import log_judge, read_log
    from trustmh.scoring.sample_scores import log_sample_scores

    if log_judge(read_log(str(log), header_only=True)) is not None:
        return False
    flags = audit_flags(log_sample_scores(str(log)))
    if flags is None:
        return False
    results = detector_precision(read_ratings(human), flags, human)
    if not results:
        raise UserError(
            f"{human}: no detector flag is labelled; score each row you review 1 (the flag is right) or 0 "
            "(a false alarm) and delete the rows you did not review"
        )
    payload = {"log": str(log), "human": str(human), "detector_precision": [r.as_dict() for r in results]}
    if json_out:
        write_text(json_text(payload), json_out)
    if json_out == "-":
        return True
    table = Table(title="detector precision: the reviewer's labels of each detector's flags (Wilson 95% CI)")
    for column in ("detector", "precision [95% CI]", "n reviewed", "confirmed"):
        table.add_column(column, no_wrap=True)
    for r in results:
        table.add_row(r.detector, f"{fmt3(r.precision)} {ci3(r.ci)}", str(r.reviewed), str(r.confirmed))
    console.print(table)
    console.print(
        "precision of the reviewed flags: the detector's own when the reviewed rows are a random sample "
        "of audit-flagged-turns.csv (it lists the worst conversations first).",
        highlight=False,
    )
    if json_out:
        console.print(f"wrote {json_out}", soft_wrap=True, highlight=False)
    return True
