"""``trustmh gate``: a run's logs against a release policy; exit 0 pass, 1 fail, 2 could not decide."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from trustmh.cli.common import JSON_METAVAR, console, err_console, error_line, user_errors
from trustmh.core.errors import UserError, redact

STYLES = {"pass": "bold green", "fail": "bold red", "insufficient": "bold yellow"}


def register(app: typer.Typer) -> None:
    app.command("gate")(gate_command)


def _on_github() -> bool:
    return os.environ.get("GITHUB_ACTIONS") == "true"


@user_errors
def gate_command(
    log_dir: Annotated[
        Path | None, typer.Argument(help="The candidate run's log folder (searched recursively).", show_default=False)
    ] = None,
    policy: Annotated[
        Path | None, typer.Option("--policy", "-p", help="The policy file (YAML; see --example).")
    ] = None,
    baseline: Annotated[
        Path | None,
        typer.Option("--baseline", help="The last release's log folder, for the policy's regression: section."),
    ] = None,
    model: Annotated[
        str | None, typer.Option("--model", "-m", help="The model to gate when the logs hold several.")
    ] = None,
    baseline_model: Annotated[
        str | None,
        typer.Option("--baseline-model", help="The baseline's model (default: the same model, else the only one)."),
    ] = None,
    judge_validation: Annotated[
        list[Path] | None,
        typer.Option(
            "--judge-validation",
            help="`trustmh judge-check --json` output (repeatable): a judged metric's PPI++-corrected CI is gated.",
        ),
    ] = None,
    junit: Annotated[Path | None, typer.Option("--junit", help="Write JUnit XML: one test case per check.")] = None,
    summary: Annotated[
        Path | None, typer.Option("--summary", help='Write a Markdown summary (e.g. "$GITHUB_STEP_SUMMARY").')
    ] = None,
    json_out: Annotated[
        str | None,
        typer.Option("--json", metavar=JSON_METAVAR, help="Write the verdict as JSON to FILE, or - for stdout."),
    ] = None,
    example: Annotated[bool, typer.Option("--example", help="Print an example policy and exit.")] = False,
    schema: Annotated[bool, typer.Option("--schema", help="Print the policy's JSON Schema and exit.")] = False,
) -> None:
    """Decide pass / fail for a release from a run's logs, on the cautious end of the evidence.

    Every threshold is checked against the lower end of the 95% CI (the upper end for max:), never
    the mean; critical items fail on one bad answer; with --baseline, a paired comparison over the
    items both runs answered. Exit 0 pass, 1 fail or insufficient evidence, 2 could not decide
    (a bad policy, a log with errored or unfinished samples, a metric the logs lack).

    Example: trustmh gate logs/ --policy gate.yaml --junit gate.xml --summary "$GITHUB_STEP_SUMMARY"

    Example: trustmh gate logs/ --policy gate.yaml --baseline release-logs/ --json verdict.json

    Example: trustmh gate --example > gate.yaml
    """
    if example or schema:
        from trustmh.core.files import json_text
        from trustmh.gate.policy import EXAMPLE, policy_schema

        typer.echo(EXAMPLE if example else json_text(policy_schema()), nl=False)
        return
    if log_dir is None or policy is None:
        raise UserError("give the log folder and --policy (or --example for a policy to start from)")
    try:
        _gate(log_dir, policy, baseline, model, baseline_model, judge_validation or [], junit, summary, json_out)
    except UserError as error:
        if _on_github():  # the one line also as an annotation on the workflow run
            print(f"::error title=trustmh gate could not decide::{redact(error_line(error))}")
        raise


def _gate(
    log_dir: Path,
    policy: Path,
    baseline: Path | None,
    model: str | None,
    baseline_model: str | None,
    judge_validation: list[Path],
    junit: Path | None,
    summary: Path | None,
    json_out: str | None,
) -> None:
    from trustmh.gate import check
    from trustmh.gate.outputs import github_annotations, write_outputs

    verdict = check(
        log_dir,
        policy,
        baseline=baseline,
        model=model,
        baseline_model=baseline_model,
        judge_validation=judge_validation,
    )
    write_outputs(verdict, None if junit is None else str(junit), None if summary is None else str(summary), json_out)
    out = err_console if json_out == "-" else console  # stdout is the JSON's
    for case in verdict.cases:
        style = STYLES[case.status]
        out.print(f"[{style}]{case.status:>12}[/{style}]  {escape(case.name)}: {escape(case.message)}", soft_wrap=True)
    for note in verdict.notes:
        out.print(f"note: {escape(note)}", soft_wrap=True)
    out.print(f"[{STYLES[verdict.status]}]{escape(verdict.headline())}[/{STYLES[verdict.status]}]", soft_wrap=True)
    if _on_github():
        for line in github_annotations(verdict):
            print(line)
    if verdict.exit_code:
        raise typer.Exit(verdict.exit_code)
