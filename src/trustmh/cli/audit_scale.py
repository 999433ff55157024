"""The detector pass of ``trustmh audit`` (Parquet exports, ``--detectors-only``): see ``docs/audit.md``."""

from __future__ import annotations

import itertools
import time
from pathlib import Path
from typing import TYPE_CHECKING

from trustmh.cli.common import console
from trustmh.core.errors import UserError

if TYPE_CHECKING:
    from collections.abc import Iterator

    import pyarrow as pa

    from trustmh.audit.run import AuditOptions


def require_scale_extra() -> None:
    """One line, not a traceback, when the optional ``scale`` extra is not installed."""
    import importlib.util

    missing = [name for name in ("pyarrow", "py3langid") if importlib.util.find_spec(name) is None]
    if missing:
        from trustmh.core.errors import UserError

        raise UserError(f"the detector pass needs {' and '.join(missing)}: pip install 'trustmh[scale]'")


def detector_pass_command(
    export: Path, log_dir: Path, columns: str | None, where: str | None, workers: int | None, limit: int | None
) -> None:
    """Run the detector pass of ``export`` into ``log_dir`` and print its summary."""
    from trustmh.audit.detect_pass import run_detector_pass
    from trustmh.audit.pass_summary import summarise_pass, summary_lines, write_summary
    from trustmh.audit.warehouse import conversation_batches

    if log_dir.exists() and not log_dir.is_dir():
        raise UserError(f"--log-dir {log_dir}: not a folder")
    batches = conversation_batches(export, columns, where)
    first = next(batches, None)  # a bad export, --columns or --where fails here, before log_dir is touched
    if first is None:
        console.print(f"{export}: no conversation matches; nothing written", highlight=False)
        return
    stream: Iterator[pa.RecordBatch] = itertools.chain([first], batches)
    if limit is not None:
        stream = _limited(stream, limit)
    source = {"export": str(export.resolve()), "columns": columns, "where": where}
    started = time.perf_counter()
    result = run_detector_pass(stream, log_dir, source, workers)
    seconds = time.perf_counter() - started
    summary = summarise_pass(log_dir)
    path = write_summary(log_dir, summary)
    resumed = f"; {result.skipped:,} already done (resumed)" if result.skipped else ""
    console.print(
        f"detector pass: {result.conversations:,} conversations in {seconds:.1f} s{resumed} -> {log_dir}/conversations/, "
        f"{log_dir}/flagged-turns/",
        highlight=False,
    )
    for line in summary_lines(summary):
        console.print(line, highlight=False, markup=False)
    console.print(f"summary: {path}", highlight=False)


def _limited(batches: Iterator[pa.RecordBatch], limit: int) -> Iterator[pa.RecordBatch]:
    remaining = limit
    for batch in batches:
        if remaining <= 0:
            return
        yield batch.slice(0, remaining)
        remaining -= min(remaining, batch.num_rows)


def sampled_judge_command(
    options: AuditOptions,
    columns: str | None,
    where: str | None,
    budget: int,
    seed: int,
    dry_run: bool,
    labels: Path | None = None,
) -> None:
    """Sample the detector pass in ``options.log_dir``, judge the sample, print population rates
    (corrected by the clinicians' ``labels`` when given)."""
    import dataclasses
    import json

    from trustmh.audit.run import dry_run_audit, run_audit
    from trustmh.audit.sample import JUDGED_LOGS, select_sample
    from trustmh.audit.sampled_judge import (
        POPULATION_RATES_FILE,
        population_rates,
        rate_lines,
        write_sample_export,
    )

    folder = options.log_dir
    design = select_sample(folder, budget, seed)
    chosen = sum(d["sampled"] for d in design.values())
    total = sum(d["population"] for d in design.values())
    strata = ", ".join(f"{h} {d['sampled']:,}/{d['population']:,}" for h, d in sorted(design.items()))
    console.print(f"judge sample (seed {seed}): {chosen:,} of {total:,} conversations; {strata}", highlight=False)
    sample = write_sample_export(options.transcripts, columns, where, folder)
    if labels is not None:  # a bad labels file stops here, before anything is sent
        console.print(labels_line(labels, folder), highlight=False)
    judged = dataclasses.replace(options, transcripts=sample, log_dir=folder / JUDGED_LOGS)
    if dry_run:
        dry_run_audit(judged)
        return
    logs = run_audit(judged)
    location = next((log.location for log in logs if log.status == "success" and log.location), None)
    if location is None:
        return
    rates = population_rates(folder, str(location).removeprefix("file://"), labels)
    for line in rate_lines(rates):
        console.print(line, highlight=False, markup=False)
    path = folder / POPULATION_RATES_FILE
    path.write_text(json.dumps(rates, indent=1), encoding="utf-8")
    console.print(f"population rates: {path}", highlight=False)


def labels_line(labels: Path, folder: Path) -> str:
    """The clinician labels of the sample, checked (one line and exit 2 when they do not fit), counted."""
    from trustmh.audit.sampled_labels import read_rate_labels, sample_index

    strata, aliases, _ = sample_index(folder)
    found = read_rate_labels(labels, strata, aliases)
    counts = ", ".join(f"{field} {len(by_conversation):,}" for field, by_conversation in sorted(found.items()))
    return f"clinician labels ({labels}): conversations labelled per rate: {counts or 'none'}"
