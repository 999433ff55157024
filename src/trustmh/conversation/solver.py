"""The conversation solver: the user side speaks, the model under test answers, turn after turn.

Stops at the end of the script, at ``max_turns``, or when the simulated user ends the chat.
Every turn is in the sample's messages (the whole transcript is in the log) and in a
:class:`~trustmh.conversation.record.ConversationRecord` in the store.

Errors: a failed target or user-model call raises, so inspect records the sample as an error
with its reason (and ``trustmh run`` retries it); the conversation is never cut short and scored.

Resume: every model call goes through inspect's model cache, scoped to the sample and epoch.
When a killed run is resumed, inspect restarts the unfinished conversations from turn 1, but
the turns that had completed come back from the cache, so no completed turn is requested
again. (inspect does not persist a sample until it finishes; the cache is what keeps the turns.)
"""

from __future__ import annotations

from inspect_ai.model import CachePolicy, ChatMessageSystem, ChatMessageUser, GenerateConfig, Model, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver

from trustmh.conversation.record import ConversationRecord, Turn, save
from trustmh.conversation.users import USER_ROLE, UserPlan, read_user_reply, simulated_user_messages

# The simulated user writes short messages; its temperature gives personas some variety.
USER_CONFIG = GenerateConfig(max_tokens=160, temperature=0.7)
# Answers of the starter slices (the embedded model on both sides in the default run) are kept
# short so the default run stays fast; benchmark runs use each task's own default.
STARTER_MAX_TOKENS = 96
# inspect's default cache expiry is a week; a conversation resumed later than that starts afresh.
CACHE_EXPIRY = "1W"


class TargetError(RuntimeError):
    """The model under test returned an error instead of an answer."""


class UserSideError(RuntimeError):
    """The simulated user produced nothing to send."""


def turn_cache(state: TaskState) -> CachePolicy:
    """Cache scope of one conversation: two samples never share turns, even with equal prefixes."""
    return CachePolicy(expiry=CACHE_EXPIRY, per_epoch=True, scopes={"trustmh_sample": str(state.sample_id)})


async def next_user_message(
    plan: UserPlan, record: ConversationRecord, user_model: Model | None, cache: CachePolicy | bool
) -> str | None:
    """The user's next message, or ``None`` when the simulated user ends the conversation."""
    number = len(record.turns) + 1
    if not plan.simulated:
        return plan.scripted_turns[number - 1]
    if number == 1 and plan.opening:
        return plan.opening
    assert user_model is not None and plan.persona is not None
    output = await user_model.generate(
        simulated_user_messages(plan.persona, record.turns), config=USER_CONFIG, cache=cache
    )
    if output.error:
        raise UserSideError(f"the simulated user failed at turn {number}: {output.error}")
    message = read_user_reply(output.completion)
    if message.ended:
        record.closing_message = message.text or None
        return None
    if not message.text:
        raise UserSideError(f"the simulated user wrote nothing at turn {number}")
    return message.text


@solver
def conversation(max_turns: int | None = None, system_prompt: str | None = None, cache: bool = True) -> Solver:
    """Hold a conversation between the sample's user side and the model under test.

    Args:
        max_turns: At most this many user turns (default: the whole script; a simulated user
            needs it, else 10).
        system_prompt: System message for the model under test (none by default).
        cache: Use inspect's model cache per turn, which is what makes a resumed run skip
            completed turns; turn off only to measure uncached calls.
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        plan = UserPlan.from_metadata(state.metadata)
        limit = max_turns or (len(plan.scripted_turns) if not plan.simulated else 10)
        if not plan.simulated:
            limit = min(limit, len(plan.scripted_turns))
        user_model = get_model(role=USER_ROLE) if plan.simulated else None
        policy: CachePolicy | bool = turn_cache(state) if cache else False
        record = ConversationRecord(
            planned_turns=limit, user_side=f"simulated:{user_model}" if user_model else "scripted"
        )
        state.messages = [ChatMessageSystem(content=system_prompt)] if system_prompt else []
        # The record goes to the store once, when the conversation ends or is cut off: every
        # store write is a transcript event holding a diff of the store, so writing the growing
        # record after each turn cost O(turns^2) (benchmarks/conversation_bench.py).
        try:
            while len(record.turns) < limit:
                user_text = await next_user_message(plan, record, user_model, policy)
                if user_text is None:
                    record.ended_by = "user_ended"
                    break
                state.messages.append(ChatMessageUser(content=user_text))
                state = await generate(state, cache=policy)
                if state.output.error:
                    raise TargetError(
                        f"the model under test failed at turn {len(record.turns) + 1}: {state.output.error}"
                    )
                record.turns.append(Turn(len(record.turns) + 1, user_text, state.output.completion))
            if record.ended_by is None:
                record.ended_by = "max_turns" if plan.simulated else "script"
        finally:
            save(state, record)
        return state

    return solve
