"""What the model under test answered, as every scorer should read it."""

from __future__ import annotations

from inspect_ai.solver import TaskState


def no_answer(state: TaskState) -> bool:
    """True when a replayed recording holds ``null``: the model gave no answer at all."""
    metadata = state.output.metadata or {}
    return bool(metadata.get("replay_no_answer"))


def output_text(state: TaskState) -> str | None:
    """The completion, or ``None`` when the model gave no answer (replayed ``null``).

    An empty string is returned as ``""``: the model answered with nothing, which scorers
    may treat differently from a missing recording.
    """
    if no_answer(state):
        return None
    return state.output.completion
