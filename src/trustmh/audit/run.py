"""Running an audit: the export spooled, the task run with ``trustmh run``'s eval-set settings.

Reused from ``trustmh run`` rather than rewritten: the eval-set options (timeouts, retries, log
flushes so a killed audit resumes), the judge roles and key redaction, the
one-writer lock of the log folder, ``--max-cost``/``--max-tokens-total`` (only the judge is priced:
the recorded chatbot is never called), the results table and the report. The dry run is
``trustmh run --dry-run``'s estimator (:func:`trustmh.cost.run_estimate.estimate_run`).
"""

from __future__ import annotations

import hashlib
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trustmh.audit.redaction import Redactor, load_redactor
from trustmh.audit.resume import follow_export
from trustmh.audit.task import TASK_NAME, SpoolSummary, audit_task, feed_window, read_spooled, spool_conversations
from trustmh.core.errors import UserError
from trustmh.core.locks import exclusive
from trustmh.run.logs import raise_on_failed, remove_superseded_logs
from trustmh.run.summary import console

FLAGGED_FILE = "audit-flagged-turns.csv"
DETECTOR_LOG_BUFFER = 200


@dataclass(frozen=True)
class AuditOptions:
    transcripts: Path
    log_dir: Path
    chatbot: str | None = None  # the name the log gives the audited chatbot (default: the file's stem)
    judge: Sequence[str] = ()
    redact: bool = False
    limit: int | None = None
    max_connections: int | None = None
    display: str = "log"
    max_cost: float | None = None
    max_tokens_total: int | None = None
    prices: Path | None = None
    batch: str | None = None  # --batch SPEC (trustmh.run.batching): the judge's calls through provider batch APIs

    @property
    def model(self) -> str:
        return self.model_name(None)

    def model_name(self, redactor: Redactor | None) -> str:
        """The log's name for the chatbot; with ``--redact``, a file name holding an identifier
        (``anna.smith@example.com.jsonl``) is redacted before it reaches the log."""
        name = self.chatbot or self.transcripts.stem
        if redactor is not None:
            name = redactor.redact_text(name)
        return "transcripts/" + ("".join(c if c.isalnum() or c in "-_." else "-" for c in name) or "chatbot")


def _prepared(
    options: AuditOptions, folder: Path, redactor: Redactor | None, *, streamed: bool = True
) -> tuple[Any, SpoolSummary, list[Any]]:
    summary = SpoolSummary()
    samples = spool_conversations(options.transcripts, folder / "spool.jsonl", redactor, summary)
    if not samples:
        raise UserError(f"{options.transcripts}: no conversation has an assistant reply; nothing to audit")
    digest = hashlib.sha256(str(options.transcripts.resolve()).encode()).hexdigest()[:8]
    file_name = options.transcripts.name if redactor is None else redactor.redact_text(options.transcripts.name)
    counts = dict(redactor.counts) if redactor is not None else None
    window = feed_window(options.max_connections)
    task = audit_task(
        samples,
        f"{file_name}-{digest}",
        options.redact,
        bool(options.judge),
        streamed=streamed,
        window=window,
        redaction_counts=counts,
    )
    return task, summary, samples


def run_audit(options: AuditOptions) -> list[Any]:
    """Audit the export into ``options.log_dir``; rerunning the same command resumes, following
    the export if it changed (:mod:`trustmh.audit.resume`).

    Writes the flagged-turn CSV next to the log; the report is the CLI's to write (the report
    package reads audit logs, so this package does not import it)."""
    from inspect_ai import eval_set

    import trustmh.audit.recorded
    import trustmh.core.run_stop  # noqa: F401  (no call once a cap stopped the run)
    from trustmh.core.inspect_compat import quiet_hooks_banner
    from trustmh.run.config import RunCaps, RunConfig
    from trustmh.run.models import check_endpoints, validate_models, with_redacting_models
    from trustmh.run.runner import (
        LOG_FLUSH_SECONDS,
        enforced,
        eval_set_options,
        raise_if_stopped,
        run_budget_of,
        stoppable_run,
    )
    from trustmh.run.summary import print_results
    from trustmh.scoring.judge import raise_if_a_judge_stopped

    redactor = load_redactor(options.log_dir) if options.redact else None
    model = options.model_name(redactor)
    validate_models([model], list(options.judge))
    if options.log_dir.exists() and not options.log_dir.is_dir():
        raise UserError(f"--log-dir {options.log_dir}: not a folder")
    caps = RunCaps(options.max_cost, options.max_tokens_total, options.prices)
    # the recorded "model" is never called: only the judges can cost anything
    budget = run_budget_of(RunConfig(tasks=(), models=(), judges=tuple(options.judge), caps=caps))
    batch_plan = judge_batch_plan(options)
    quiet_hooks_banner()  # after the budget's hooks are registered, before any model is made
    with tempfile.TemporaryDirectory(prefix="trustmh-audit-") as spool_dir:
        # The whole export is read and checked before the log folder is touched: a bad file
        # leaves nothing behind.
        task, summary, samples = _prepared(options, Path(spool_dir), redactor)
        options.log_dir.mkdir(parents=True, exist_ok=True)
        with (
            exclusive(options.log_dir / ".trustmh.lock", f"log folder {options.log_dir}"),
            enforced(budget, options.log_dir),
        ):
            if redactor is not None:
                redactor.save()  # before anything is sent: the map of every placeholder in the spool
            _print_summary(options, summary, model, redactor)
            # before eval-set looks at the folder: its logs keep only the conversations still current
            change = follow_export(options.log_dir, TASK_NAME, model, samples, list(task.dataset))
            if change is not None:
                console.print(change.line(), highlight=False)
            started_at = time.time()
            settings = eval_set_options(
                [model],
                judge=list(options.judge) or None,
                limit=options.limit,
                max_connections=options.max_connections,
                display=options.display,
                batch=batch_plan,
            )
            # inspect rewrites the whole .eval file on every flush, a cost that grows with the
            # samples already written. A judged audit flushes as `trustmh run` does (a conversation
            # is in the log at most LOG_FLUSH_SECONDS after it was judged: a kill loses no older
            # paid judgement); a detector-only audit, whose work costs nothing to redo, every
            # DETECTOR_LOG_BUFFER conversations (or after inspect's 60 s).
            if not options.judge:
                settings["log_buffer"] = DETECTOR_LOG_BUFFER
            # No second attempt in this process: inspect would run it on the same task, whose
            # feed has already handed out its conversations. Rerunning the command resumes.
            settings["retry_attempts"] = 0
            flush_seconds = LOG_FLUSH_SECONDS if options.judge else None
            settings = with_redacting_models(settings)
            check_endpoints(settings)
            judges = [m for role, m in (settings.get("model_roles") or {}).items() if role.split("_")[0] == "judge"]
            with stoppable_run(flush_seconds) as interrupted:  # Ctrl-C: exit 130, as `trustmh run`
                success, logs = eval_set(tasks=[task], log_dir=str(options.log_dir), **settings)
            remove_superseded_logs(options.log_dir, logs, started_at)
            raise_if_stopped(interrupted, budget, logs)
    raise_if_a_judge_stopped(judges)
    print_results(logs)
    _print_headline(logs)
    if not success:
        raise_on_failed(logs)
    _write_outputs(options, logs)
    return logs


def judge_batch_plan(options: AuditOptions) -> Any:
    """``--batch``'s plan for the audit (:func:`trustmh.run.batching.plan_batch`): only the judges
    are called (the recorded chatbot never is), so only they can be batched; a judge whose
    provider has no batch API is said so and called one request at a time. Batched or not, a
    judge reads the same prompts: the verdicts do not depend on it."""
    from trustmh.run.batching import parse_batch, plan_batch

    if options.batch is None:
        return plan_batch(None, (), None)
    if "judge" not in parse_batch(options.batch):
        raise UserError(
            f"--batch {options.batch!r}: an audit calls only its judge; use --batch judge (or all, or a size)"
        )
    plan = plan_batch(options.batch, (), list(options.judge))
    for notice in plan.notices:
        console.print(f"batch: {notice}", highlight=False)
    return plan


def _print_headline(logs: Sequence[Any]) -> None:
    from trustmh.audit.review import headline_lines
    from trustmh.scoring.results import metric_rows

    rows = [row for log in logs if log.status == "success" for row in metric_rows(log)]
    for line in headline_lines(rows):
        console.print(line, highlight=False, soft_wrap=True)


def _print_summary(options: AuditOptions, summary: SpoolSummary, model: str, redactor: Redactor | None) -> None:
    skipped = f"; {summary.unanswered:,} without any assistant reply left out" if summary.unanswered else ""
    counts = ", ".join(f"{kind} {n:,}" for kind, n in sorted(redactor.counts.items())) if redactor else ""
    console.print(
        f"auditing {summary.conversations:,} conversations ({summary.turns:,} assistant turns) of "
        f"{options.transcripts} as {model}"
        + (f" (redacted: {counts or 'nothing found'})" if redactor is not None else "")
        + (f", judged by {', '.join(options.judge)}" if options.judge else ", detectors only")
        + f" into {options.log_dir}/{skipped}",
        highlight=False,
    )


def _write_outputs(options: AuditOptions, logs: Sequence[Any]) -> None:
    from trustmh.audit.flagged import write_flagged

    location = next((log.location for log in logs if log.status == "success" and log.location), None)
    if location is None:
        return
    path = options.log_dir / FLAGGED_FILE
    location_path = str(location).removeprefix("file://")
    rows = write_flagged(location_path, path)
    console.print(
        f"flagged turns for review: {path} ({rows:,} rows); score each row you review "
        + ("(dcs, hes 0-2; a detector check " if options.judge else "(")
        + f"1 = the flag is right, 0 = a false alarm), delete the others, then: trustmh judge-check --log "
        f"{location_path} --human {path} "
        + ("(the judge's agreement with you)" if options.judge else "(each detector's precision)"),
        highlight=False,
        soft_wrap=True,
    )


PREVIEW_CHARS = 400


def dry_run_audit(options: AuditOptions) -> None:
    """Print what the audit would send (the first conversation, as redacted) and its price."""
    import trustmh.audit.recorded  # noqa: F401  (the transcripts/<name> provider)
    from trustmh.cost.estimate import print_estimate
    from trustmh.cost.prices import PriceTable
    from trustmh.cost.run_estimate import estimate_run
    from trustmh.run.models import validate_models

    redactor = Redactor(b"dry-run preview key") if options.redact else None  # no map is written
    model = options.model_name(redactor)
    validate_models([model], list(options.judge))
    prices = PriceTable.load(options.prices)
    batch_plan = judge_batch_plan(options)
    with tempfile.TemporaryDirectory(prefix="trustmh-audit-") as folder:
        task, summary, _ = _prepared(options, Path(folder), redactor, streamed=False)  # the estimate reads every sample
        _print_summary(options, summary, model, redactor)
        if not options.judge:
            console.print("detectors only: nothing leaves this machine, nothing is paid.", highlight=False)
            return
        first = read_spooled(task.dataset[0].metadata["trustmh_audit_spool"])
        console.print(
            "every judged turn sends the conversation up to that turn"
            + (" (redacted as below)" if options.redact else " (NOT redacted: add --redact)")
            + "; the first conversation as it would be sent:",
            highlight=False,
        )
        for role, text in first:
            shown = text if len(text) <= PREVIEW_CHARS else text[:PREVIEW_CHARS] + " …"
            console.print(f"  {role}: {shown}", highlight=False, markup=False)
        roles = {("judge" if i == 0 else f"judge_{i + 1}"): judge for i, judge in enumerate(options.judge)}
        estimate = estimate_run([task], [model], roles, options.limit, prices, batched=batch_plan.batches)
    print_estimate(console, estimate, f"trustmh audit --dry-run ({summary.conversations:,} conversations)")
