"""The offline HTML report: one self-contained page comparing models across pillars.

``build_report`` is what ``trustmh report`` and the end of ``trustmh run`` call.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

from trustmh.core.errors import UserError
from trustmh.core.files import write_json, write_text
from trustmh.core.spreadsheet import neutralise_csv_cell
from trustmh.report.collect import Collection, collect

# The figures, the page renderer (plotly, jinja2) and the leaderboards are imported where they
# are used: ``trustmh run`` imports this package for its console summary (report.headline) and
# should not pay for the page it does not build.

# Column order of the tidy results table (CSV and JSON exports). ``strict*``: the metric with
# every unparsed answer counted wrong, where the scorer reports that variant (``<metric>_strict``,
# folded into the metric's row by trustmh.scoring.results); empty otherwise.
TIDY_COLUMNS = (
    "model",
    "pillar",
    "task",
    "metric",
    "value",
    "ci_low",
    "ci_high",
    "n",
    "unparsed",
    "strict",
    "strict_ci_low",
    "strict_ci_high",
    "strict_n",
    "source",
    "judge",
)

__all__ = ["TIDY_COLUMNS", "build_report", "collect", "rankings", "tidy_records", "write_exports"]


def build_report(
    log_dirs: list[Path],
    output: Path,
    redact: bool = False,
    align_json: Path | None = None,
    *,
    csv_path: Path | None = None,
    json_path: Path | None = None,
    judge_validation: list[Path] | None = None,
    exclude_self: bool = False,
    gate: Path | None = None,
    evidence: Callable[[Collection], dict[str, Any]] | None = None,
    audit_passes: list[dict[str, Any]] | None = None,
    samples_of_passes: list[Path] | None = None,
) -> Path:
    """Write the HTML report for the logs under ``log_dirs`` to ``output`` and return its path.

    ``csv_path``/``json_path`` also export the tidy results table; ``judge_validation``:
    ``trustmh judge-check --json`` files shown beside the judged metrics. All input is read and
    checked before anything is written: bad input raises :class:`trustmh.core.errors.UserError`
    and leaves no file behind (each file is written atomically). ``exclude_self`` leaves out
    the logs judged by a judge of their model's own family (``docs/judges.md``). ``gate``: a
    ``trustmh gate --json`` verdict, shown first in its own section (docs/gate.md). ``evidence``
    builds the statutory evidence section from the collection (``trustmh report --profile``; the
    regulatory package sits above this one, so it is passed in). ``audit_passes``: the sections of
    ``trustmh audit``'s detector passes (Parquet; built by the audit package, above this one), and
    ``samples_of_passes`` the folders of their judged samples, whose logs are left out.
    """
    from trustmh.report.alignment import load_alignment
    from trustmh.report.gate_verdict import load_verdict
    from trustmh.report.judge_validation import annotate, load_validations
    from trustmh.report.render import render_html

    alignment = load_alignment(align_json) if align_json is not None else None
    validations = load_validations(judge_validation or [])
    verdict = load_verdict(gate) if gate is not None else None
    collection = collect(
        [Path(d) for d in log_dirs],
        redact=redact,
        exclude_self=exclude_self,
        samples_of_passes=samples_of_passes,
        logs_required=not audit_passes,
    )
    annotate(collection.results, validations)
    html = render_html(
        collection,
        alignment,
        redact,
        verdict,
        evidence(collection) if evidence is not None else None,
        audit_passes=audit_passes or [],
    )
    try:
        write_text(html, output)
        passes = [row for view in audit_passes or [] for row in view["tidy"]]
        write_exports(collection, csv_path, json_path, passes)
    except OSError as error:
        where = error.filename or output
        raise UserError(f"{where}: cannot write the report ({error.strerror or error})") from None
    return Path(output)


def tidy_records(collection: Collection, extra: list[dict[str, Any]] | None = None) -> list[dict[str, object]]:
    """One row per metric of each log; ``extra``: rows in the same columns from elsewhere (detector passes)."""
    rows = [{c: row.as_dict()[c] for c in TIDY_COLUMNS} for res in collection.results for row in res.rows]
    return rows + [{c: record.get(c) for c in TIDY_COLUMNS} for record in extra or []]


def rankings(collection: Collection) -> list[dict[str, object]]:
    """One leaderboard per source (see :mod:`trustmh.report.ranking`), as JSON."""
    from trustmh.report.headline import pillar_scores
    from trustmh.report.ranking import leaderboards

    rows = [row for res in collection.results for row in res.rows]
    return [board.as_dict() for board in leaderboards(pillar_scores(rows), collection.item_values())]


def write_exports(
    collection: Collection,
    csv_path: Path | None = None,
    json_path: Path | None = None,
    extra: list[dict[str, Any]] | None = None,
) -> None:
    records = tidy_records(collection, extra)
    if csv_path is not None:
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=TIDY_COLUMNS, lineterminator="\n")
        writer.writeheader()
        # task, model and metric names are user text: never a live formula in a spreadsheet
        writer.writerows({k: neutralise_csv_cell(v) for k, v in record.items()} for record in records)
        write_text(buffer.getvalue(), csv_path)
    if json_path is not None:
        from trustmh.report.escalation_tradeoff import escalation_points

        points = [p.as_dict() for p in escalation_points([row for res in collection.results for row in res.rows])]
        write_json({"results": records, "rankings": rankings(collection), "escalation_tradeoff": points}, json_path)
