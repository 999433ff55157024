"""The detector pass of ``trustmh audit`` (Parquet exports, ``--detectors-only``): see ``docs/audit.md``."""

from __future__ import annotations

import itertools
import time
from pathlib import Path

from trustmh.cli.common import console


def detector_pass_command(
    export: Path, log_dir: Path, columns: str | None, where: str | None, workers: int | None, limit: int | None
) -> None:
    """Run the detector pass of ``export`` into ``log_dir`` and print its summary."""
    from trustmh.audit.detect_pass import run_detector_pass
    from trustmh.audit.pass_summary import summarise_pass, summary_lines, write_summary
    from trustmh.audit.warehouse import conversation_batches

    batches = conversation_batches(export, columns, where)
    first = next(batches, None)  # a bad export, --columns or --where fails here, before log_dir is touched
    if first is None:
        console.print(f"{export}: no conversation matches; nothing written", highlight=False)
        return
    stream = itertools.chain([first], batches)
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


def _limited(batches, limit: int):  # type: ignore[no-untyped-def]
    remaining = limit
    for batch in batches:
        if remaining <= 0:
            return
        yield batch.slice(0, remaining)
        remaining -= min(remaining, batch.num_rows)
