"""What the model under test said, read the same way by every scorer."""

from __future__ import annotations

from inspect_ai.solver import TaskState


def no_answer(state: TaskState) -> bool:
    """A replayed ``"output": null``: the recorded model gave no answer at all."""
    metadata = state.output.metadata or {}
    return bool(metadata.get("replay_no_answer"))


def replayed(state: TaskState) -> bool:
    """The answer is a recording (``trustmh/replay``): text as it was recorded, not a fresh reply."""
    return "replay_no_answer" in (state.output.metadata or {})


def output_text(state: TaskState) -> str | None:
    """The completion, or ``None`` when there was no answer (scored as unparsed, not as "")."""
    return None if no_answer(state) else state.output.completion
