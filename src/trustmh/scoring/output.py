"""What the model answered, for scorers.

A replayed ``"output": null`` (the recorded model gave no answer) is marked with
``state.output.metadata["replay_no_answer"]``; scorers must count it as unparsed, not score
the empty completion as an answer.
"""

from __future__ import annotations

from inspect_ai.solver import TaskState


def output_text(state: TaskState) -> str | None:
    """The completion, or ``None`` when the (replayed) model gave no answer."""
    metadata = state.output.metadata or {}
    if metadata.get("replay_no_answer"):
        return None
    return state.output.completion
