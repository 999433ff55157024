"""The conversation solver with a simulated user (inspect model role ``user``)."""

from __future__ import annotations

from pathlib import Path

from inspect_ai import Task, eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import get_model
from inspect_ai.scorer import Score, Target, mean, scorer
from inspect_ai.solver import TaskState

from tests.fakes import CALLS, script
from trustmh.conversation import conversation, conversation_of
from trustmh.conversation.users import END_TOKEN


@scorer(metrics=[mean()])
def turns_scorer():
    async def score(state: TaskState, target: Target) -> Score:
        return Score(value=len(conversation_of(state).turns))

    return score


def _persona_task(max_turns: int, opening: str | None = None) -> Task:
    metadata = {"persona": "Sam, 34, lonely since moving city; speaks briefly.", "opening": opening}
    return Task(
        dataset=MemoryDataset([Sample(id="p1", input="Sam", metadata=metadata)]),
        solver=conversation(max_turns=max_turns),
        scorer=turns_scorer(),
    )


def test_simulated_user_speaks_in_role_and_an_early_end_is_shortened(tmp_path: Path) -> None:
    user = script("sim-user", ["I moved here alone.", "Nobody calls me.", f"Thanks, bye. {END_TOKEN}"])
    target = script("sim-target", ["That sounds hard."])
    [log] = eval(
        _persona_task(max_turns=6),
        model=target,
        model_roles={"user": get_model(user)},
        log_dir=str(tmp_path),
        display="none",
    )
    (sample,) = log.samples
    record = sample.store["trustmh_conversation"]
    assert record["ended_by"] == "user_ended" and record["closing_message"] == "Thanks, bye."
    assert [turn["user"] for turn in record["turns"]] == ["I moved here alone.", "Nobody calls me."]
    assert [m.role for m in sample.messages] == ["user", "assistant", "user", "assistant"]
    # ended after 2 of 6 planned turns: shortened, never scored as complete (issue 25); a
    # conversation scorer flags it (test_steering), a plain reader still sees its 2 turns
    assert sample.error is None and sample.scores["turns_scorer"].value == 2
    # The user model saw the persona, the opening cue, then the target's answers with a reminder.
    prompts = CALLS["sim-user"]
    assert prompts[0].startswith("(The chat window is open.")
    assert prompts[1].startswith("That sounds hard.") and "Stay in character" in prompts[1]
    assert record["user_side"] == "simulated:scripted/sim-user"


def test_max_turns_and_scripted_opening(tmp_path: Path) -> None:
    user = script("sim-user-2", ["Still here."])
    target = script("sim-target-2", ["Go on."])
    [log] = eval(
        _persona_task(max_turns=3, opening="Hello?"),
        model=target,
        model_roles={"user": get_model(user)},
        log_dir=str(tmp_path),
        display="none",
    )
    record = log.samples[0].store["trustmh_conversation"]
    assert record["ended_by"] == "max_turns"
    assert [turn["user"] for turn in record["turns"]] == ["Hello?", "Still here.", "Still here."]
    assert len(CALLS["sim-user-2"]) == 2  # the opening is sent as written


def test_without_a_user_role_the_model_under_test_plays_the_user(tmp_path: Path) -> None:
    both = script("both-sides", ["Hi there."])
    [log] = eval(_persona_task(max_turns=2), model=both, log_dir=str(tmp_path), display="none")
    record = log.samples[0].store["trustmh_conversation"]
    assert record["user_side"] == "simulated:scripted/both-sides" and len(record["turns"]) == 2
    assert len(CALLS["both-sides"]) == 4


def test_each_simulated_user_prompt_extends_the_previous_one() -> None:
    """Issue 17: the role reminder closes every answer, so turn n+1's prompt starts with turn n's
    prompt and the simulated user's own reply, word for word: the embedded model prefills only
    the new turn instead of everything after the answer that used to carry the reminder."""
    from trustmh.conversation.record import Turn
    from trustmh.conversation.users import PERSONA_RESTATED, REMINDER, simulated_user_messages

    persona = "Sam, 34, lonely since moving city."
    turns = [Turn(1, "I moved here alone.", "That sounds hard."), Turn(2, "Nobody calls me.", "Tell me more.")]
    first, second = ([(m.role, m.text) for m in simulated_user_messages(persona, turns[:n])] for n in (1, 2))
    assert second[len(first)] == ("assistant", "Nobody calls me.")
    reminder = REMINDER.format(end=END_TOKEN)
    restated = "\n" + PERSONA_RESTATED.format(persona=persona)
    assert first[-1][1].endswith(restated)  # the persona has the last word (issue 25) ...
    first[-1] = ("user", first[-1][1].removesuffix(restated))  # ... only after the last answer
    assert second[: len(first)] == first
    assert [text for role, text in second[2:] if role == "user"] == [
        f"That sounds hard.\n\n{reminder}",
        f"Tell me more.\n\n{reminder}{restated}",
    ]
