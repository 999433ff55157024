"""The logs a ``trustmh run`` leaves: failures named in one line, superseded logs of a killed run removed."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from trustmh.core.errors import UserError
from trustmh.run.summary import first_line


def raise_on_failed(logs: Sequence[Any]) -> None:
    for log in logs:
        if log.status == "error":
            raise UserError(
                f"task {log.eval.task} on {log.eval.model} failed: {first_line(log.error.message if log.error else None)}"
            )
        if log.status in ("started", "cancelled"):
            raise UserError(
                f"task {log.eval.task} on {log.eval.model} did not finish ({log.status}); rerun the same command to resume"
            )


def remove_superseded_logs(log_dir: Path, logs: Sequence[Any], started_at: float) -> list[str]:
    """Delete the "started" logs a killed run left behind once this run has finished them.

    inspect keeps a crashed run's "started" log next to the log of the run that resumed
    it (it cannot tell a dead writer from a live one), so every finished sample would be in
    the folder twice. We remove such a log only when all of these hold: the resumed log of
    the same task finished with status "success", the old log was last written before this
    run started (no live writer), and each of its samples is in the new log.
    Returns the removed paths.
    """
    from inspect_ai.log import list_eval_logs, read_eval_log, read_eval_log_sample_summaries

    from trustmh.core.inspect_compat import cleanup_sample_buffers_for_log

    finished = {log.eval.task_id: log for log in logs if log.status == "success" and log.location}
    if not finished:
        return []

    def local(name: str) -> str:
        return name.removeprefix("file://")

    current = {local(log.location) for log in logs if log.location}
    removed: list[str] = []
    for info in list_eval_logs(str(log_dir), recursive=False):
        mtime = (info.mtime or 0) / (1000 if (info.mtime or 0) > 1e11 else 1)  # ms or s by version
        if local(info.name) in current or mtime >= started_at:
            continue
        try:
            header = read_eval_log(info.name, header_only=True)
        except Exception:  # noqa: BLE001 - not a log we can judge: leave it
            continue
        newer = finished.get(header.eval.task_id)
        if header.status != "started" or newer is None:
            continue
        try:
            old_ids = {(s.id, s.epoch) for s in read_eval_log_sample_summaries(info.name)}
            new_ids = {(s.id, s.epoch) for s in read_eval_log_sample_summaries(newer.location)}
        except Exception:  # noqa: BLE001 - an unreadable sample list: keep the log rather than guess
            continue
        if not old_ids <= new_ids:
            continue
        try:
            cleanup_sample_buffers_for_log(info.name)
        except Exception:  # noqa: BLE001 - a leftover buffer only costs disk space
            pass
        path = Path(local(info.name))
        path.unlink(missing_ok=True)
        removed.append(str(path))
    return removed
