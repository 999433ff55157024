"""A rerun of ``trustmh audit`` follows the export: edited conversations audited again, removed ones
dropped, new ones audited, unchanged ones reused from the log.

inspect's eval-set resumes a task by sample id (and takes a finished log as done), so a rerun
after the export changed would keep the old scores of an edited conversation, keep a removed
one in the results, or (log finished) audit nothing new, and exit 0. Each sample therefore
carries :data:`CONTENT_KEY`, a digest of everything its scores depend on (:func:`content_key`),
and before the task runs :func:`follow_export` compares the log folder's audit logs of this
chatbot with the export: when anything differs, the log is rewritten with the samples that are
still current (status ``started``, so eval-set resumes it and reuses exactly those) and the
change is said in one line (``resume: 3 edited, 1 removed, 2 new, 120 unchanged``). A log
written before the key existed has no current sample: everything is audited again.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trustmh.core.errors import UserError

CONTENT_KEY = "trustmh_audit_content"  # sample metadata: the digest of what the sample's scores depend on


def content_key(
    recorded: Sequence[tuple[str, str]],
    recorded_metadata: dict[str, str],
    sent: Sequence[tuple[str, str]],
    sent_metadata: dict[str, str],
    redaction_key: bytes | None,
    timing: Sequence[Any] = (),
) -> str:
    """Digest of a conversation as exported (roles, texts, metadata, and ``timing``: each message's
    time and session, which the statutory checks read) and as scored and sent (after redaction, if
    any), and whether it was redacted.

    The scored text changes with the redaction rules and the redaction key, so a change to either
    audits the conversation again. With redaction the digest is an HMAC under the redaction key,
    so the log holds nothing that tests a guess of the original text."""
    record = {
        "redacted": redaction_key is not None,
        "recorded": [list(m) for m in recorded],
        "recorded_metadata": sorted(recorded_metadata.items()),
        "sent": [list(m) for m in sent],
        "sent_metadata": sorted(sent_metadata.items()),
        "timing": [list(part) for part in timing],
    }
    text = json.dumps(record, ensure_ascii=False).encode()
    return hmac.new(redaction_key or b"", text, hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class ExportChange:
    """How the export differs from what an audit log holds, by conversation."""

    unchanged: int
    edited: int
    removed: int
    new: int

    @property
    def changed(self) -> bool:
        return bool(self.edited or self.removed or self.new)

    def line(self) -> str:
        return (
            f"resume: {self.edited:,} edited, {self.removed:,} removed, {self.new:,} new, {self.unchanged:,} unchanged"
        )


def compare(logged: dict[str, str | None], current: dict[str, str]) -> ExportChange:
    """``logged``/``current``: conversation id -> content key (``None``: a log without keys)."""
    same = sum(1 for cid, key in logged.items() if key is not None and current.get(cid) == key)
    edited = sum(1 for cid, key in logged.items() if cid in current and current[cid] != key)
    removed = sum(1 for cid in logged if cid not in current)
    return ExportChange(same, edited, removed, sum(1 for cid in current if cid not in logged))


def follow_export(
    log_dir: Path, task: str, model: str, samples: Sequence[Any], seed: Sequence[Any]
) -> ExportChange | None:
    """Make the audit logs of ``task`` on ``model`` in ``log_dir`` hold only current samples.

    ``samples``: every prepared sample of the export (their metadata holds :data:`CONTENT_KEY`);
    ``seed``: those the task starts with (what the rewritten log's header records as its dataset).
    Returns the change against the newest such log, or ``None`` when there is none."""
    from inspect_ai.log import list_eval_logs, read_eval_log, read_eval_log_sample_summaries

    current = {str(s.id): str(s.metadata[CONTENT_KEY]) for s in samples}
    newest: ExportChange | None = None
    for info in sorted(list_eval_logs(str(log_dir), recursive=False), key=lambda i: i.mtime or 0, reverse=True):
        try:
            header = read_eval_log(info.name, header_only=True)
            if header.eval.task.split("/")[-1] != task or header.eval.model != model:
                continue
            logged = {str(s.id): (s.metadata or {}).get(CONTENT_KEY) for s in read_eval_log_sample_summaries(info.name)}
        except Exception as error:  # noqa: BLE001 - a log we cannot read could hold stale scores
            raise UserError(
                f"{info.name}: cannot read this audit log ({type(error).__name__}); "
                "move it out of the log folder and rerun"
            ) from None
        change = compare(logged, current)
        newest = newest or change
        if change.changed:
            _keep_current(info.name, current, seed)
    return newest


def _keep_current(location: str, current: dict[str, str], seed: Sequence[Any]) -> None:
    """Rewrite the log at ``location`` with only the samples whose content key is current, as a
    log eval-set resumes (status ``started``); a log with none left is removed."""
    from inspect_ai.log import EvalDataset, read_eval_log, write_eval_log

    from trustmh.core.inspect_compat import cleanup_sample_buffers_for_log

    # samples of a killed run still in inspect's buffer would be folded back in on resume
    cleanup_sample_buffers_for_log(location)
    log = read_eval_log(location)
    kept = [
        s
        for s in log.samples or []
        if current.get(str(s.id)) is not None and (s.metadata or {}).get(CONTENT_KEY) == current[str(s.id)]
    ]
    path = Path(location.removeprefix("file://"))
    if not kept:
        path.unlink(missing_ok=True)
        return
    # eval-set reuses a prior log's samples only when its dataset size is the task's (or smaller)
    dataset = EvalDataset(
        name=log.eval.dataset.name,
        location=log.eval.dataset.location,
        samples=len(seed),
        sample_ids=[s.id for s in seed],
        shuffled=log.eval.dataset.shuffled,
    )
    log.eval = log.eval.model_copy(update={"dataset": dataset})
    log = log.model_copy(update={"samples": kept, "status": "started", "results": None, "reductions": None})
    write_eval_log(log, str(path))
