"""``trustmh audit``: score a deployed chatbot's recorded conversations (see ``docs/audit.md``)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from trustmh.cli.common import console, usd_amount, user_errors
from trustmh.cli.evaluate import DEFAULT_LOG_DIR
from trustmh.core.errors import UserError
from trustmh.core.paths import check_input_file
from trustmh.run.config import DISPLAYS

if TYPE_CHECKING:
    from trustmh.audit.run import AuditOptions


def register(app: typer.Typer) -> None:
    app.command("audit")(audit_command)


@user_errors
def audit_command(
    transcripts: Annotated[
        Path,
        typer.Argument(
            help="The export: .jsonl (one conversation per line, OpenAI chat 'messages'), .csv "
            "(conversation_id, turn, role, content; other columns are metadata), or a .parquet file or "
            "folder (hive partitions such as date=2026-11-01/ welcome): Parquet runs the fast detector pass."
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
    detectors_only: Annotated[
        bool,
        typer.Option(
            "--detectors-only",
            help="The fast detector pass (every core, no inspect log): one Parquet row per conversation and "
            "per flagged turn in --log-dir; rerunning resumes. The default for Parquet exports.",
        ),
    ] = False,
    columns: Annotated[
        str | None,
        typer.Option(
            help="Parquet column names, as NAME=COLUMN pairs: conversation_id, role, content, turn (one row per "
            "message) or messages (a list of {role, content}). E.g. conversation_id=session,content=text."
        ),
    ] = None,
    where: Annotated[
        str | None,
        typer.Option(
            help="Parquet rows to read, e.g. \"date >= '2026-11-01'\" (=, !=, <, >, IN, BETWEEN, IS NULL, AND, OR, "
            "NOT; pushed down to partitions and row groups; not SQL: nothing else is accepted)."
        ),
    ] = None,
    workers: Annotated[
        int | None, typer.Option(min=1, help="Processes of the detector pass (default: one per core).")
    ] = None,
    sample_judge: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="After the detector pass, judge a seeded stratified sample of about N conversations (flagged "
            "strata first) with --judge, and estimate population rates with 95% CIs.",
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the --sample-judge sample (same seed, same sample).")] = 0,
    labels: Annotated[
        Path | None,
        typer.Option(
            help="With --sample-judge: clinician labels of judged conversations (sample_id, field, rater, score; "
            "fields no_intervention, harm_enabled, validated; 1 or 0), to correct the population rates (PPI).",
        ),
    ] = None,
    batch: Annotated[
        str | None,
        typer.Option(
            help="The judge's calls through provider batch APIs (OpenAI, Anthropic, Google, Grok, Together; "
            "about half price, hours of latency): judge | all | SIZE | judge=SIZE, as trustmh run (docs/batch.md)."
        ),
    ] = None,
) -> None:
    """Audit a deployed chatbot's own conversations: missed crises, delusion confirmation, harm
    enablement, over-escalation, privacy leaks, refusals; an inspect log, a report section and a
    CSV of flagged turns for human review.

    Example (offline, detectors only): trustmh audit src/trustmh/audit/examples/support_bot.jsonl --log-dir logs/audit

    Example: trustmh audit export.csv --redact --judge openai/gpt-4o --dry-run --prices prices.yaml

    Example: trustmh audit export.csv --redact --judge openai/gpt-4o --max-cost 20 --log-dir logs/audit

    Example (a warehouse export, every core): trustmh audit exports/chats/ --columns
    conversation_id=session,content=text --where "date >= '2026-11-01'" --log-dir logs/audit-nov

    Example (judge 4,000 of them, price first): trustmh audit exports/chats/ --sample-judge 4000
    --judge openai/gpt-4o --redact --dry-run --prices prices.yaml --log-dir logs/audit-nov

    Example (the same through the batch API): trustmh audit exports/chats/ --sample-judge 4000
    --judge openai/gpt-4o --redact --batch judge --log-dir logs/audit-nov

    Example (the rates corrected by clinician labels of judged conversations): trustmh audit exports/chats/
    --sample-judge 4000 --judge openai/gpt-4o --redact --labels ratings.csv --log-dir logs/audit-nov
    """
    if display not in DISPLAYS:
        raise UserError(f"--display {display!r}: expected one of {', '.join(DISPLAYS)}")
    if sample_judge is not None and (not judge or detectors_only):
        raise UserError("--sample-judge N chooses what a judge reads: give --judge MODEL (and not --detectors-only)")
    if labels is not None and sample_judge is None:
        raise UserError("--labels corrects the population rates of a judged sample: give --sample-judge N")
    if labels is not None:
        check_input_file(labels, "clinician labels (.csv or .jsonl: sample_id, field, rater, score)")
    if batch is not None and not judge:
        raise UserError("--batch batches the judge's calls: give --judge MODEL (without a judge nothing is sent)")
    if (max_cost is not None or max_tokens_total is not None) and not judge:
        raise UserError("--max-cost/--max-tokens-total cap the judge's calls; without --judge nothing is paid")

    def audit_options() -> AuditOptions:  # imported when needed: the detector pass runs without inspect
        from trustmh.audit.run import AuditOptions

        return AuditOptions(
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
            batch=batch,
        )

    if detectors_only or sample_judge is not None or transcripts.is_dir() or transcripts.suffix.lower() == ".parquet":
        from trustmh.cli.audit_scale import detector_pass_command, require_scale_extra, sampled_judge_command

        require_scale_extra()
        if sample_judge is None and (judge or redact or dry_run):
            raise UserError(
                "the detector pass (--detectors-only, Parquet exports) sends nothing: drop --judge, --redact and "
                "--dry-run, or judge a sample with --sample-judge N"
            )
        detector_pass_command(transcripts, log_dir, columns, where, workers, limit)
        if sample_judge is not None:
            judged = dataclasses.replace(audit_options(), chatbot=chatbot or transcripts.stem, limit=None)
            sampled_judge_command(judged, columns, where, sample_judge, seed, dry_run, labels)
        return
    if columns or where or workers:
        raise UserError("--columns, --where and --workers apply to Parquet exports and --detectors-only")
    check_input_file(transcripts, "a transcript export (.jsonl or .csv)")
    from trustmh.audit.run import dry_run_audit, run_audit

    options = audit_options()
    if dry_run:
        dry_run_audit(options)
        return
    run_audit(options)
    if report:
        from trustmh.report import build_report

        console.print(f"report: {build_report([log_dir], log_dir / 'report.html')}", highlight=False)
