"""The conversation solver: the user side speaks, the model under test answers, turn after turn.

Stops at the end of the script, at ``max_turns``, or when the simulated user ends the chat.
Every turn is in the sample's messages (the whole transcript is in the log) and in a
:class:`~trustmh.conversation.record.ConversationRecord` in the store.

Errors: a failed target or user-model call raises, so inspect records the sample as an error
with its reason (and ``trustmh run`` retries it); the conversation is never cut short and scored.

Resume: every model call's answer is committed to the turn store
(:mod:`trustmh.conversation.turn_store`), keyed to the sample, epoch and conversation so far.
When a killed run is resumed, inspect restarts the unfinished conversations from turn 1, but
the turns that had completed are replayed from the store, so no completed turn is requested
again. (inspect does not persist a sample until it finishes; the store is what keeps the turns.)
"""

from __future__ import annotations

from dataclasses import dataclass

from inspect_ai.model import (
    ChatMessage,
    ChatMessageSystem,
    ChatMessageUser,
    GenerateConfig,
    Model,
    ModelOutput,
    get_model,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver

from trustmh.conversation.budget import fitted_turn_budget
from trustmh.conversation.record import ConversationRecord, Turn, save
from trustmh.conversation.turn_store import CallKey, TurnStore, call_identity, replay, turn_store
from trustmh.conversation.users import (
    OPENING_CUE,
    PERSONA_RESTATED,
    REMINDER,
    REMINDER_PLACEMENT,
    SIMULATED_USER_SYSTEM,
    USER_ROLE,
    UserPlan,
    read_user_reply,
    simulated_user_messages,
)
from trustmh.core.inspect_compat import resolved_generate_config

# The simulated user writes short messages; its temperature gives personas some variety.
USER_CONFIG = GenerateConfig(max_tokens=160, temperature=0.7)
# Answers of the starter slices (the embedded model on both sides in the default run) are kept
# short so the default run stays fast; benchmark runs use each task's own default.
STARTER_MAX_TOKENS = 96


class TargetError(RuntimeError):
    """The model under test returned an error instead of an answer."""


class UserSideError(RuntimeError):
    """The simulated user produced nothing to send."""


@dataclass
class StoredCalls:
    """The turn store and the running keys of one conversation's two parties (see ``turn_store``)."""

    store: TurnStore
    target: CallKey
    user: CallKey | None

    def add(self, role: str, text: str) -> None:
        self.target.add(role, text)
        if self.user is not None:
            self.user.add(role, text)


def stored_calls(
    state: TaskState, plan: UserPlan, user_model: Model | None, system_prompt: str | None, target_config: GenerateConfig
) -> StoredCalls | None:
    store = turn_store()
    if store is None:
        return None
    target = CallKey(*call_identity("target", get_model(), target_config, state.sample_id, state.epoch))
    if system_prompt:
        target.add("system", system_prompt)
    user = None
    if user_model is not None:
        identity = call_identity("user", user_model, USER_CONFIG, state.sample_id, state.epoch)
        # The user side's prompt wording is part of what it is asked: a change of it is a new call.
        prompt = (plan.system or SIMULATED_USER_SYSTEM, OPENING_CUE, REMINDER, REMINDER_PLACEMENT, PERSONA_RESTATED)
        user = CallKey(*identity, *prompt, plan.persona or "", plan.opening or "")
    return StoredCalls(store, target, user)


async def generate_stored(
    model: Model, messages: list[ChatMessage], config: GenerateConfig, store: TurnStore | None, key: str | None
) -> ModelOutput:
    """``model.generate(messages)``, or the answer the same call got before a kill (replayed)."""
    if store is not None and key is not None:
        stored = store.get(key)
        if stored is not None:
            replay(model, messages, config, stored)
            return stored
    output = await model.generate(messages, config=config)
    if store is not None and key is not None and not output.error:
        store.put(key, output)
    return output


async def next_user_message(
    plan: UserPlan, record: ConversationRecord, user_model: Model | None, calls: StoredCalls | None
) -> str | None:
    """The user's next message, or ``None`` when the simulated user ends the conversation."""
    number = len(record.turns) + 1
    if not plan.simulated:
        return plan.scripted_turns[number - 1]
    if number == 1 and plan.opening:
        return plan.opening
    assert user_model is not None and plan.persona is not None
    messages = simulated_user_messages(plan.persona, record.turns, plan.system)
    key = calls.user.key() if calls is not None and calls.user is not None else None
    output = await generate_stored(user_model, messages, USER_CONFIG, calls.store if calls else None, key)
    if output.error:
        raise UserSideError(f"the simulated user failed at turn {number}: {output.error}")
    message = read_user_reply(output.completion)
    if message.ended:
        record.closing_message = message.text or None
        return None
    if not message.text:
        raise UserSideError(f"the simulated user wrote nothing at turn {number}")
    return message.text


async def answer_turn(
    state: TaskState, generate: Generate, calls: StoredCalls | None, config: GenerateConfig
) -> TaskState:
    """The model under test answers the last user message: replayed from the store when it had.

    ``config``: settings over the task's (a budget fitted to the context window, or none)."""
    key = calls.target.key() if calls is not None else None
    stored = calls.store.get(key) if calls is not None and key is not None else None
    if stored is not None:
        replay(get_model(), state.messages, config, stored)
        state.output = stored
        state.messages.append(stored.message)
        return state
    state = await (generate(state, max_tokens=config.max_tokens) if config.max_tokens else generate(state))
    if calls is not None and key is not None and not state.output.error:
        calls.store.put(key, state.output)
    return state


TARGET_SYSTEM_KEY = "target_system_prompt"


@solver
def conversation(max_turns: int | None = None, system_prompt: str | None = None, cache: bool = True) -> Solver:
    """Hold a conversation between the sample's user side and the model under test.

    Args:
        max_turns: At most this many user turns (default: the whole script; a simulated user
            needs it, else 10).
        system_prompt: System message for the model under test (none by default); a sample's own
            ``target_system_prompt`` metadata (a benchmark's per-profile prompt) replaces it.
        cache: Keep every answer in the turn store, which is what makes a resumed run skip
            completed turns; turn off only to measure the calls without it.
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        plan = UserPlan.from_metadata(state.metadata)
        system = state.metadata.get(TARGET_SYSTEM_KEY) or system_prompt
        limit = max_turns or (len(plan.scripted_turns) if not plan.simulated else 10)
        if not plan.simulated:
            limit = min(limit, len(plan.scripted_turns))
        user_model = get_model(role=USER_ROLE) if plan.simulated else None
        target = get_model()
        task_max_tokens = resolved_generate_config(target, GenerateConfig()).max_tokens
        budget = fitted_turn_budget(
            target, user_model, plan, limit, system, task_max_tokens, USER_CONFIG.max_tokens or 0
        )
        target_config = GenerateConfig(max_tokens=budget.max_tokens) if budget else GenerateConfig()
        calls = stored_calls(state, plan, user_model, system, target_config) if cache else None
        record = ConversationRecord(
            planned_turns=limit,
            user_side=f"simulated:{user_model}" if user_model else "scripted",
            turn_max_tokens=budget.max_tokens if budget else None,
            context_window=budget.context_window if budget else None,
        )
        state.messages = [ChatMessageSystem(content=system)] if system else []
        # The record goes to the store once, when the conversation ends or is cut off: every
        # store write is a transcript event holding a diff of the store, so writing the growing
        # record after each turn cost O(turns^2) (benchmarks/conversation_bench.py).
        try:
            while len(record.turns) < limit:
                user_text = await next_user_message(plan, record, user_model, calls)
                if user_text is None:
                    record.ended_by = "user_ended"
                    break
                state.messages.append(ChatMessageUser(content=user_text))
                if calls is not None:
                    calls.add("user", user_text)
                state = await answer_turn(state, generate, calls, target_config)
                if state.output.error:
                    raise TargetError(
                        f"the model under test failed at turn {len(record.turns) + 1}: {state.output.error}"
                    )
                if calls is not None:
                    calls.add("assistant", state.output.completion)
                record.turns.append(Turn(len(record.turns) + 1, user_text, state.output.completion))
            if record.ended_by is None:
                record.ended_by = "max_turns" if plan.simulated else "script"
        finally:
            save(state, record)
        return state

    return solve
