"""Recorded outputs (the ``trustmh/replay`` model) checked against a task's samples before any call."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any


def _last_user_text(sample: Any) -> str:
    if isinstance(sample.input, str):
        return sample.input
    for message in reversed(sample.input):
        if getattr(message, "role", None) == "user":
            return str(message.text)
    return ""


def check_recordings(
    task: str, built: Any, responses: Path, label: str | None = None, limit: int | None = None
) -> None:
    """Validate the task's recordings against its samples before any model call or scoring."""
    check_covered(task, built, load_recordings(task, responses, label), limit)


def load_recordings(task: str, responses: Path, label: str | None = None) -> Any:
    """The task's :class:`~trustmh.models.replay.Recordings` (a malformed file is one line)."""
    from trustmh.models.replay import Recordings, task_file

    return Recordings.load(task_file(responses, task, label))


def check_covered(task: str, built: Any, recordings: Any, limit: int | None = None) -> None:
    """Every sample of ``built`` has a record, and every record a sample."""
    samples = [(str(sample.id), _last_user_text(sample)) for sample in built.dataset]
    recordings.check_covers(task, samples, limit)


def check_replays(models: Sequence[str], model_args: dict[str, Any], tasks: Sequence[Any], limit: int | None) -> None:
    """A replayed model must have a record for every sample it will be asked about: one line
    naming the file, the task and the first missing id, instead of an error per sample."""
    responses = model_args.get("responses")
    for model in models:
        if not model.startswith("trustmh/replay") or not responses:
            continue
        label = model.removeprefix("trustmh/replay").strip("/") or None
        for task in tasks:
            check_recordings(task.name.removeprefix("trustmh/"), task, Path(str(responses)), label, limit)
