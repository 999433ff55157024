"""Answer budgets that let a whole conversation fit in the model's context window.

A conversation's prompt grows every turn: turn *k* resends the system prompt, every earlier
message and every earlier answer. With a task's per-answer budget *B* (1024 tokens in benchmark
mode, :data:`trustmh.tasking.declare.JUDGED_TOKENS`) and *L* planned turns, the last prompt can reach
``fixed + (L - 1) * B`` tokens, where *fixed* is everything but the answers (system prompt, user
messages, chat template). A model whose context window *W* is smaller cannot finish the
conversation: the embedded SmolLM2-135M (*W* = 8192) often writes to the limit, and a
12-turn Psychosis-bench script at 1024 tokens a turn overflowed it by turn 7.

Where the model under test declares its window (the embedded models do; API models and
deployed chatbots do not, and keep the task's budget), each answer gets at most an equal share
of what the fixed part leaves::

    share = floor((W - fixed - simulated_user_reserve) / L)
    max_tokens = min(B, share)

``simulated_user_reserve`` is the simulated user's own budget for each of its messages (their
text is not known in advance), so a simulated conversation always fits too; when the user side
is a model with a window of its own, its view (persona, cue, reminder) is checked the same way
and the smaller share wins. An equal share, not what is left turn by turn, so the budget does
not depend on how long earlier answers were and every turn of every conversation of a sample
is asked the same way. The budget used is recorded with the conversation
(:class:`~trustmh.conversation.record.ConversationRecord`); a share under
:data:`MIN_TURN_TOKENS` is an error (the conversation is too long for the model), never a
conversation of truncated answers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageSystem, ChatMessageUser, Model

from trustmh.conversation.record import Turn
from trustmh.conversation.users import UserPlan, simulated_user_messages

# Below this an answer cannot say much more than a sentence; the conversation is refused instead.
MIN_TURN_TOKENS = 64


class ConversationTooLong(RuntimeError):
    """The planned conversation cannot fit in the model's context window with usable answers."""


@dataclass(frozen=True)
class TurnBudget:
    """Each answer's token budget when the context window, not the task, set it."""

    max_tokens: int
    task_max_tokens: int
    context_window: int


@runtime_checkable
class DeclaresContextWindow(Protocol):
    """A model provider that knows its context window and can count a prompt's tokens
    (:class:`trustmh.models.providers.TrustmhModelAPI`)."""

    def context_window(self) -> int | None: ...

    def count_prompt_tokens(self, messages: list[ChatMessage]) -> int: ...


def _target_skeleton(plan: UserPlan, limit: int, system_prompt: str | None) -> list[ChatMessage]:
    """The model under test's last prompt with empty answers: what its context must hold besides them."""
    messages: list[ChatMessage] = [ChatMessageSystem(content=system_prompt)] if system_prompt else []
    for number in range(1, limit + 1):
        text = plan.scripted_turns[number - 1] if not plan.simulated else ""
        messages += [ChatMessageUser(content=text), ChatMessageAssistant(content="")]
    return messages[:-1]


@dataclass(frozen=True)
class _Party:
    """One side's context window and the equal share of it each answer may take."""

    window: int
    share: int


def _party(model: Model, messages: list[ChatMessage], limit: int, reserve: int) -> _Party | None:
    """``None`` when the model declares no context window."""
    api = model.api
    if not isinstance(api, DeclaresContextWindow):
        return None
    window = api.context_window()
    if window is None:
        return None
    return _Party(window, (window - api.count_prompt_tokens(messages) - reserve) // limit)


def fitted_turn_budget(
    target: Model,
    user_model: Model | None,
    plan: UserPlan,
    limit: int,
    system_prompt: str | None,
    task_max_tokens: int | None,
    user_max_tokens: int,
) -> TurnBudget | None:
    """The per-answer budget that fits the conversation (see module docstring); None when the task's fits."""
    if task_max_tokens is None or limit < 1:
        return None
    reserve = user_max_tokens * limit if plan.simulated else 0
    parties = [_party(target, _target_skeleton(plan, limit, system_prompt), limit, reserve)]
    if user_model is not None and plan.persona is not None:
        empty_turns = [Turn(number, "", "") for number in range(1, limit + 1)]
        parties.append(_party(user_model, simulated_user_messages(plan.persona, empty_turns), limit, reserve))
    tightest = min((party for party in parties if party is not None), key=lambda party: party.share, default=None)
    if tightest is None or tightest.share >= task_max_tokens:
        return None
    if tightest.share < MIN_TURN_TOKENS:
        raise ConversationTooLong(
            f"{limit} turns do not fit in the model's {tightest.window}-token context window with answers of at "
            f"least {MIN_TURN_TOKENS} tokens (each could have {max(tightest.share, 0)}); plan fewer turns or use a "
            "longer-context model"
        )
    return TurnBudget(max_tokens=tightest.share, task_max_tokens=task_max_tokens, context_window=tightest.window)
