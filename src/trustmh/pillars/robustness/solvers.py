"""The ``perturb_input`` solver: perturbs the last user message before the task's own solver.

What is perturbed: the sample's ``metadata["perturb_span"]`` (the item: the text the user
wrote inside an instruction prompt, or an MCQ's question and options) when present and found in
the message; otherwise the whole message. Either way MCQ option markers and answer-cue lines
stay intact (:func:`~trustmh.pillars.robustness.perturb.default_regions`).

The perturbed input and its settings are logged in ``state.metadata["perturbation"]`` and
``state.store`` (key ``"perturbation"``), so every log shows exactly what the model read.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.model import ChatMessageUser
from inspect_ai.solver import Generate, Solver, TaskState, solver

from trustmh.pillars.robustness.perturb import (
    STACK_STAGES,
    STACKED,
    check_args,
    clip_regions,
    default_regions,
    perturb_regions,
)

KIND_KEY = "perturbation_kind"
INTENSITY_KEY = "perturbation_intensity"
CLEAN = "clean"


def perturbed_text(text: str, metadata: dict[str, Any], kind: str, intensity: int, seed: int | str) -> tuple[str, str]:
    """``(new text, "span" | "default")``: which part was editable is logged with it."""
    span = metadata.get("perturb_span")
    start = text.find(span) if isinstance(span, str) and span else -1
    if isinstance(span, str) and start >= 0:
        return perturb_regions(
            text, clip_regions(default_regions(text), start, start + len(span)), kind, intensity, seed
        ), "span"
    return perturb_regions(text, default_regions(text), kind, intensity, seed), "default"


@solver(name="trustmh/perturb_input")
def perturb_input(kind: str | None = None, intensity: int | None = None, seed: int = 0) -> Solver:
    """Rewrite the last user message with a seeded perturbation.

    ``kind``/``intensity`` default to the sample's ``perturbation_kind`` /
    ``perturbation_intensity`` metadata (set by the robustness task for each variant);
    kind ``"clean"`` or intensity 0 leaves the input unchanged. The seed mixes ``seed``
    with the sample id, so samples get different but reproducible edits.
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        chosen_kind = kind or state.metadata.get(KIND_KEY, CLEAN)
        chosen_intensity = int(intensity if intensity is not None else state.metadata.get(INTENSITY_KEY, 0))
        base_id = state.metadata.get("base_id", state.sample_id)
        record: dict[str, Any] = {"kind": chosen_kind, "intensity": chosen_intensity, "seed": seed}
        if chosen_kind != CLEAN and chosen_intensity > 0:
            check_args(chosen_kind, chosen_intensity)
            for message in reversed(state.messages):
                if isinstance(message, ChatMessageUser):
                    original = message.text
                    new_text, mode = perturbed_text(
                        original, state.metadata, chosen_kind, chosen_intensity, f"{seed}:{base_id}"
                    )
                    message.content = new_text
                    record.update({"editable": mode, "perturbed_input": new_text, "changed": new_text != original})
                    if chosen_kind == STACKED:
                        record["stages"] = list(STACK_STAGES[chosen_intensity])
                    break
        state.metadata["perturbation"] = record
        state.store.set("perturbation", record)
        return state

    return solve
