"""``trustmh report``: one self-contained HTML page (plus optional CSV/JSON) from logs."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from trustmh.cli.common import console, user_errors


def register(app: typer.Typer) -> None:
    app.command("report")(report_command)


@user_errors
def report_command(
    log_dirs: Annotated[
        list[Path],
        typer.Argument(help="Log directories (searched recursively) or single .eval/.json logs.", show_default=False),
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
    json_out: Annotated[Path | None, typer.Option("--json", help="Also write the tidy results table as JSON.")] = None,
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
) -> None:
    """Build an offline HTML report comparing every model and task in the logs.

    The latest successful log per (task, model) is used. The page needs no network.

    Example: trustmh report logs/ -o report.html --csv results.csv --redact

    Example: trustmh report logs/ -o report.html --exclude-self

    Example: trustmh report logs/ -o report.html --judge-validation validation.json

    Example: trustmh report logs/ -o report.html --gate verdict.json
    """
    from trustmh.report import build_report

    path = build_report(
        log_dirs,
        output,
        redact=redact,
        align_json=align,
        csv_path=csv_out,
        json_path=json_out,
        judge_validation=judge_validation,
        exclude_self=exclude_self,
        gate=gate,
    )
    console.print(f"report written to {path}")
