"""The turn-by-turn solver of the support-dialogue tasks (ESConv, CPsyCounE).

At each judged helper turn the model sees the dialogue so far (the *reference* turns of the
original dialogue, as in CPsyCoun's turn-based evaluation, not its own earlier replies) and
writes the helper's next message. The replies go to the sample store under ``REPLIES``.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageSystem, ChatMessageUser, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver

REPLIES = "reliability_support_replies"


def judged_turns(turns: list[dict[str, str]], helper: str, max_turns: int) -> list[int]:
    """Indices of the helper turns to generate: every helper turn that follows a turn of the
    other speaker, or ``max_turns`` of them spread evenly over the dialogue (first and last
    included); ``max_turns <= 0`` means all.

    >>> judged_turns([{"role": r} for r in "ushshshsh"], "h", 2)
    [2, 8]
    """
    candidates = [i for i, turn in enumerate(turns) if turn["role"] == helper and i > 0]
    if max_turns <= 0 or len(candidates) <= max_turns:
        return candidates
    if max_turns == 1:
        return [candidates[-1]]
    step = (len(candidates) - 1) / (max_turns - 1)
    return [candidates[int(k * step + 0.5)] for k in range(max_turns)]


def history_messages(turns: list[dict[str, str]], upto: int, helper: str, max_history: int) -> list[ChatMessage]:
    """Turns before ``upto`` as chat messages (helper = assistant), at most the last
    ``max_history`` of them (``<= 0``: all), starting with a user message."""
    window = turns[:upto]
    if max_history > 0:
        window = window[-max_history:]
    while window and window[0]["role"] == helper:
        window = window[1:]
    return [
        ChatMessageAssistant(content=turn["text"]) if turn["role"] == helper else ChatMessageUser(content=turn["text"])
        for turn in window
    ]


def transcript(turns: list[dict[str, str]], labels: dict[str, str]) -> str:
    return "\n".join(f"{labels[turn['role']]}{turn['text']}" for turn in turns)


@solver
def support_turns(
    helper: str, labels: dict[str, str], system_prompt: str, max_turns: int = 3, max_history: int = 0
) -> Solver:
    """Generate the helper's reply at each judged turn of ``state.metadata["turns"]``.

    ``labels`` maps each role to its transcript prefix (e.g. ``"Seeker: "``); the
    ``system_prompt`` may use ``{situation}``.
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        turns: list[dict[str, str]] = state.metadata["turns"]
        system = system_prompt.format(situation=state.metadata.get("situation", ""))
        model = get_model()
        replies: list[dict[str, Any]] = []
        output = None
        for index in judged_turns(turns, helper, max_turns):
            messages: list[ChatMessage] = [ChatMessageSystem(content=system)]
            messages += history_messages(turns, index, helper, max_history)
            output = await model.generate(messages)
            replies.append(
                {
                    "turn": index,
                    "context": transcript(turns[:index], labels),
                    "reply": output.completion.strip(),
                    "reference": turns[index]["text"],
                    "no_answer": bool((output.metadata or {}).get("replay_no_answer")),
                }
            )
        state.store.set(REPLIES, replies)
        if output is not None:
            state.output = output
            state.messages.append(ChatMessageAssistant(content=output.completion))
        return state

    return solve
