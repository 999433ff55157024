"""``trustmh report``: one self-contained HTML page (plus optional CSV/JSON) from logs."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from trustmh.cli.common import JSON_METAVAR, console, user_errors
from trustmh.core.errors import UserError
from trustmh.core.files import write_json


def register(app: typer.Typer) -> None:
    app.command("report")(report_command)


@user_errors
def report_command(
    log_dirs: Annotated[
        list[Path],
        typer.Argument(
            help="Log directories (searched recursively) or single .eval/.json logs; a folder holding a "
            "detector pass (trustmh audit EXPORT/, Parquet) adds its audit section.",
            show_default=False,
        ),
    ],
    output: Annotated[Path, typer.Option("--output", "-o", help="HTML file to write.")] = Path("report.html"),
    redact: Annotated[
        bool,
        typer.Option(
            "--redact",
            help="Leave out every transcript (inputs, outputs, explanations, judge replies); keep aggregates only.",
        ),
    ] = False,
    csv_out: Annotated[Path | None, typer.Option("--csv", help="Also write the tidy results table as CSV.")] = None,
    json_out: Annotated[
        Path | None,
        typer.Option(
            "--json",
            metavar=JSON_METAVAR,
            help="Also write the tidy results table as JSON; with --profile, the statutory evidence document "
            "instead ('-' = stdout).",
        ),
    ] = None,
    align: Annotated[
        Path | None,
        typer.Option("--align", help="Add the judge-human alignment section from `trustmh align --json` output."),
    ] = None,
    judge_validation: Annotated[
        list[Path] | None,
        typer.Option(
            "--judge-validation",
            help="`trustmh judge-check --json` output: shown beside each judged metric it validates (repeatable); "
            "other judged metrics read 'unvalidated'.",
        ),
    ] = None,
    gate: Annotated[
        Path | None,
        typer.Option("--gate", help="Show a `trustmh gate --json` verdict first, in a Gate section."),
    ] = None,
    exclude_self: Annotated[
        bool,
        typer.Option(
            "--exclude-self",
            help="Leave out logs judged by a judge of their model's own family (self-preference); listed as not used.",
        ),
    ] = False,
    profile: Annotated[
        str | None,
        typer.Option(
            "--profile",
            help="Add statutory evidence from the audit logs: ca-sb243, ny-gbl47, ut-hb452 or il-hb1806 "
            "(docs/regulatory.md; evidence for a compliance process, not legal advice).",
        ),
    ] = None,
    period: Annotated[
        str | None,
        typer.Option("--period", help="With --profile: only conversations that began in this calendar year (UTC)."),
    ] = None,
    population: Annotated[
        int | None,
        typer.Option(
            "--population",
            min=1,
            help="With --profile: the period's total conversations, when the audit is a uniform random sample of "
            "them (the referral count is then estimated with its 95% CI).",
        ),
    ] = None,
    labels: Annotated[
        Path | None,
        typer.Option(
            "--labels",
            help="With --profile: clinician labels of crisis-referral turns (sample_id, turn, field=crisis_referral, "
            "rater, score 0/1) for the detector's sensitivity and specificity and the corrected count; for "
            "il-hb1806, of out-of-scope replies (field=out_of_scope) for the detector's and the judge's.",
        ),
    ] = None,
    validation: Annotated[
        Path | None,
        typer.Option(
            "--validation",
            help="With --profile: the labels as a `trustmh judge-check --json` validation of the judged audit log "
            "(fields crisis_referral and/or out_of_scope, per turn), in place of --labels.",
        ),
    ] = None,
) -> None:
    """Build an offline HTML report comparing every model and task in the logs.

    The latest successful log per (task, model) is used. The page needs no network.

    Example: trustmh report logs/ -o report.html --csv results.csv --redact

    Example: trustmh report logs/ -o report.html --exclude-self

    Example: trustmh report logs/ -o report.html --judge-validation validation.json

    Example: trustmh report logs/ -o report.html --gate verdict.json

    Example: trustmh report logs/ --profile ca-sb243 --period 2026 --json evidence.json

    Example: trustmh report logs/ --profile il-hb1806 --validation judge-check.json --json evidence.json

    Example (a Parquet audit): trustmh report logs/audit-nov --profile ny-gbl47 -o audit.html
    """
    from trustmh.report import build_report

    passes, pass_views, judged_samples = _audit_passes(log_dirs)

    if profile is None and (period, population, labels, validation) != (None, None, None, None):
        raise UserError("--period, --population, --labels and --validation go with --profile", "--profile")
    documents: list[dict[str, Any]] = []
    evidence = None
    if profile is not None:
        from trustmh.regulatory.document import EvidenceRequest, build_document, html_view, profile_named

        profile_named(profile)  # a bad name fails before any log is read
        request = EvidenceRequest(profile, period, population, labels, validation, tuple(passes))

        def evidence(collection: Any) -> dict[str, Any]:
            documents.append(build_document(collection, request))
            return html_view(documents[-1])

    path = build_report(
        log_dirs,
        output,
        redact=redact,
        align_json=align,
        csv_path=csv_out,
        json_path=None if profile is not None else json_out,
        judge_validation=judge_validation,
        exclude_self=exclude_self,
        gate=gate,
        evidence=evidence,
        audit_passes=pass_views,
        samples_of_passes=judged_samples,
    )
    if documents and json_out is not None:
        write_json(documents[0], json_out)
    if json_out is None or str(json_out) != "-":
        console.print(f"report written to {path}")
        if documents and json_out is not None:
            console.print(f"evidence ({profile}) written to {json_out}")


def _audit_passes(targets: list[Path]) -> tuple[list[Path], list[dict[str, Any]], list[Path]]:
    """The detector passes under ``targets``, their report sections (read before anything is
    written) and the folders of their judged samples."""
    import importlib.util

    if importlib.util.find_spec("pyarrow") is None:  # no scale extra: no detector pass could have been written
        return [], [], []
    from trustmh.audit.pass_report import detector_passes, judged_folders, pass_view

    passes = detector_passes(targets)
    return passes, [pass_view(folder) for folder in passes], judged_folders(passes)
