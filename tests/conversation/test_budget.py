"""Answer budgets fitted to a model's context window (trustmh.conversation.budget), by hand."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import pytest
from inspect_ai.model import ChatMessage

from trustmh.conversation.budget import ConversationTooLong, TurnBudget, fitted_turn_budget
from trustmh.conversation.record import Turn
from trustmh.conversation.users import UserPlan, simulated_user_messages

PER_MESSAGE = 4  # the fake template's tokens around each message


@dataclass
class WindowedApi:
    """A provider declaring a context window; a prompt's tokens are its words plus 4 per message."""

    window: int | None

    def context_window(self) -> int | None:
        return self.window

    def count_prompt_tokens(self, messages: list[ChatMessage]) -> int:
        return sum(len(message.text.split()) + PER_MESSAGE for message in messages)


def model(window: int | None) -> Any:
    return SimpleNamespace(api=WindowedApi(window))


TEN_WORDS = "one two three four five six seven eight nine ten"
SCRIPT = UserPlan(scripted_turns=(TEN_WORDS,) * 3)


def test_scripted_conversation_gets_an_equal_share_of_what_the_messages_leave() -> None:
    # Last prompt without answers: 3 user messages (10 words + 4) and 2 empty answers (4) = 50.
    # share = floor((1000 - 50) / 3) = 316 < 1024.
    budget = fitted_turn_budget(model(1000), None, SCRIPT, 3, None, 1024, 160)
    assert budget == TurnBudget(max_tokens=316, task_max_tokens=1024, context_window=1000)


def test_system_prompt_counts_against_the_window() -> None:
    # + a 2-word system message (2 + 4): floor((1000 - 56) / 3) = 314.
    budget = fitted_turn_budget(model(1000), None, SCRIPT, 3, "be kind", 1024, 160)
    assert budget is not None and budget.max_tokens == 314


def test_task_budget_kept_when_it_fits_or_the_window_is_unknown() -> None:
    assert fitted_turn_budget(model(1000), None, SCRIPT, 3, None, 316, 160) is None
    assert fitted_turn_budget(model(None), None, SCRIPT, 3, None, 1024, 160) is None
    assert fitted_turn_budget(SimpleNamespace(api=object()), None, SCRIPT, 3, None, 1024, 160) is None
    assert fitted_turn_budget(model(1000), None, SCRIPT, 3, None, None, 160) is None


def test_simulated_user_messages_are_reserved_at_the_users_budget() -> None:
    plan = UserPlan(persona="Sam, thirty four, lonely")
    # Target: 3 empty user messages and 2 empty answers = 20; reserve 3 x 160 = 480.
    # share = floor((1000 - 20 - 480) / 3) = 166. The user model's window is large: no tighter.
    budget = fitted_turn_budget(model(1000), model(100_000), plan, 3, None, 1024, 160)
    assert budget is not None and budget.max_tokens == 166 and budget.context_window == 1000


def test_the_simulated_users_own_window_can_be_the_tighter_one() -> None:
    plan = UserPlan(persona="Sam, thirty four, lonely")
    empty = [Turn(n, "", "") for n in (1, 2, 3)]
    user_fixed = WindowedApi(None).count_prompt_tokens(simulated_user_messages(plan.persona or "", empty))
    assert user_fixed > 20  # its view holds the persona, the cue and the reminder
    budget = fitted_turn_budget(model(1000), model(1000), plan, 3, None, 1024, 160)
    assert budget is not None and budget.max_tokens == (1000 - user_fixed - 480) // 3


def test_a_conversation_too_long_for_the_window_is_refused_not_truncated() -> None:
    # floor((150 - 50) / 3) = 33 < 64 tokens an answer needs at least.
    with pytest.raises(ConversationTooLong, match=r"3 turns do not fit in the model's 150-token context window"):
        fitted_turn_budget(model(150), None, SCRIPT, 3, None, 1024, 160)
