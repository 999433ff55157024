"""``trustmh audit``: score a deployed chatbot's recorded conversations (see ``docs/audit.md``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from trustmh.cli.common import console, usd_amount, user_errors
from trustmh.cli.evaluate import DEFAULT_LOG_DIR
from trustmh.core.errors import UserError
from trustmh.core.paths import check_input_file
from trustmh.run.config import DISPLAYS


def register(app: typer.Typer) -> None:
    app.command("audit")(audit_command)


@user_errors
def audit_command(
    transcripts: Annotated[
        Path,
        typer.Argument(
            help="The export: .jsonl (one conversation per line, OpenAI chat 'messages') or .csv "
            "(conversation_id, turn, role, content; other columns are metadata)."
        ),
    ],
    judge: Annotated[
        list[str] | None,
        typer.Option(
            help="Judge model for DCS/HES/SIS on every assistant turn (repeat for a panel); without it: detectors only."
        ),
    ] = None,
    redact: Annotated[
        bool,
        typer.Option(
            "--redact",
            help="Replace names, emails, phones, addresses, dates of birth, handles, card, bank and national "
            "ids with stable placeholders before anything is scored, logged or sent, in the messages, "
            "conversation ids, metadata and file name (the map stays in the log folder; crisis lines are kept).",
        ),
    ] = False,
    chatbot: Annotated[
        str | None, typer.Option(help="Name of the audited chatbot in the log and report (default: the file's name).")
    ] = None,
    log_dir: Annotated[Path, typer.Option(help="Where the log goes; rerunning the same command resumes.")] = Path(
        DEFAULT_LOG_DIR
    ),
    limit: Annotated[int | None, typer.Option(min=1, help="Audit only the first N conversations.")] = None,
    max_connections: Annotated[int | None, typer.Option(min=1, help="Concurrent judge requests.")] = None,
    display: Annotated[str, typer.Option(help="inspect's display: log, rich, full, plain, none.")] = "log",
    report: Annotated[bool, typer.Option(help="Write report.html next to the log at the end.")] = True,
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run",
            help="Print what would be sent to the judge (redacted if --redact) and the price; send nothing.",
        ),
    ] = False,
    prices: Annotated[
        Path | None, typer.Option(help="Prices for --dry-run and --max-cost (YAML/JSON, see docs/cost.md).")
    ] = None,
    max_cost: Annotated[
        float | None,
        typer.Option(
            min=0, callback=usd_amount, help="Stop before the judge's cost (USD) could cross this; rerun resumes."
        ),
    ] = None,
    max_tokens_total: Annotated[
        int | None, typer.Option(min=1, help="Stop before the judge's tokens could cross this; rerun resumes.")
    ] = None,
) -> None:
    """Audit a deployed chatbot's own conversations: missed crises, delusion confirmation, harm
    enablement, over-escalation, privacy leaks, refusals; an inspect log, a report section and a
    CSV of flagged turns for human review.

    Example (offline, detectors only): trustmh audit examples/audit/support_bot.jsonl --log-dir logs/audit

    Example: trustmh audit export.csv --redact --judge openai/gpt-4o --dry-run --prices prices.yaml

    Example: trustmh audit export.csv --redact --judge openai/gpt-4o --max-cost 20 --log-dir logs/audit
    """
    from trustmh.audit.run import AuditOptions, dry_run_audit, run_audit

    check_input_file(transcripts, "a transcript export (.jsonl or .csv)")
    if display not in DISPLAYS:
        raise UserError(f"--display {display!r}: expected one of {', '.join(DISPLAYS)}")
    if (max_cost is not None or max_tokens_total is not None) and not judge:
        raise UserError("--max-cost/--max-tokens-total cap the judge's calls; without --judge nothing is paid")
    options = AuditOptions(
        transcripts=transcripts,
        log_dir=log_dir,
        chatbot=chatbot,
        judge=tuple(judge or ()),
        redact=redact,
        limit=limit,
        max_connections=max_connections,
        display=display,
        max_cost=max_cost,
        max_tokens_total=max_tokens_total,
        prices=prices,
    )
    if dry_run:
        dry_run_audit(options)
        return
    run_audit(options)
    if report:
        from trustmh.report import build_report

        console.print(f"report: {build_report([log_dir], log_dir / 'report.html')}", highlight=False)
