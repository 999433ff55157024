"""What a conversation leaves in the sample: its turns, why it stopped, and whether it finished.

The solver writes one :class:`ConversationRecord` to the sample store (key :data:`STORE_KEY`),
so it is in the log beside the messages; scorers read it back with :func:`conversation_of`,
which refuses (as a sample error) a conversation that was interrupted before its planned end.

A conversation the simulated user ended early is *shortened* (the model under test may have
talked it into ending, issue 25): it is never scored as if it were complete, but it is not an
error either — a small simulated user (the embedded model plays it offline) ends early now and
then, and one such sample must not fail the whole task. Scorers wrapped in
:func:`conversation_score` flag it (``shortened`` = 1, counted by ``shortened_rate`` over every
conversation, with its n and CI) and score nothing else of it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from inspect_ai.scorer import Metric, Score, Scorer, Target
from inspect_ai.solver import TaskState

from trustmh.core.turn import Turn as Turn  # re-exported: defined apart, light to import
from trustmh.scoring import metrics as m

STORE_KEY = "trustmh_conversation"
SHORTENED = "shortened"  # the score field that flags a shortened conversation (1) or not (0)
EndReason = Literal["script", "max_turns", "user_ended"]


@dataclass
class ConversationRecord:
    planned_turns: int
    turns: list[Turn] = field(default_factory=list)
    ended_by: EndReason | None = None  # None while the conversation is still running
    user_side: str = "scripted"  # "scripted" or "simulated:<model>"
    closing_message: str | None = None  # the simulated user's words before it ended the conversation
    # Set when every answer's budget was cut to fit the conversation in the model's context
    # window (trustmh.conversation.budget); None: the task's own budget.
    turn_max_tokens: int | None = None
    context_window: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ConversationRecord:
        turns = [Turn(**turn) for turn in data.get("turns", [])]
        return cls(**{**data, "turns": turns})

    @property
    def shortened(self) -> bool:
        """The simulated user ended it before its planned turns (an ending the model under test may have steered)."""
        return self.ended_by == "user_ended" and len(self.turns) < self.planned_turns

    @property
    def complete(self) -> bool:
        if self.ended_by is None or self.shortened:
            return False
        return len(self.turns) == self.planned_turns


class IncompleteConversation(RuntimeError):
    """The conversation did not reach its planned end: the sample is an error, not a score."""


def save(state: TaskState, record: ConversationRecord) -> None:
    state.store.set(STORE_KEY, record.as_dict())


def conversation_of(state: TaskState) -> ConversationRecord:
    """The conversation of ``state``, finished or shortened (see :func:`conversation_score`);
    raises :class:`IncompleteConversation` when it was interrupted or never recorded."""
    data = state.store.get(STORE_KEY)
    if not data:
        raise IncompleteConversation("no conversation was recorded for this sample (was the conversation solver run?)")
    record = ConversationRecord.from_dict(data)
    if not record.complete and not record.shortened:
        raise IncompleteConversation(
            f"the conversation stopped after {len(record.turns)} of {record.planned_turns} turns "
            f"(ended by: {record.ended_by or 'an interruption'}); it is not scored as complete"
        )
    return record


def conversation_metrics() -> list[Metric]:
    """The metrics every conversation scorer reports: mean turns, and the share shortened."""
    return [m.mean("turns", "turns"), m.rate(SHORTENED, "shortened_rate")]


def shortened_score(record: ConversationRecord) -> Score:
    """A shortened conversation's score: flagged and counted, nothing else scored."""
    return Score(
        value={"turns": float(len(record.turns)), SHORTENED: 1.0},
        explanation=(
            f"shortened: the simulated user ended the conversation after {len(record.turns)} of "
            f"{record.planned_turns} planned turns; not scored (counted in shortened_rate)"
        ),
        metadata={"closing_message": record.closing_message, "user_side": record.user_side},
    )


ConversationScore = Callable[[TaskState, Target, ConversationRecord], Awaitable[Score]]


def conversation_score(score_record: ConversationScore) -> Scorer:
    """A scorer's score function over the sample's finished conversation.

    ``score_record(state, target, record)`` scores a complete conversation; a shortened one is
    answered with :func:`shortened_score` instead and never reaches it. Every score gets the
    ``shortened`` field (0 or 1), so ``shortened_rate``'s denominator is every conversation.
    """

    async def score(state: TaskState, target: Target) -> Score:
        record = conversation_of(state)
        if record.shortened:
            return shortened_score(record)
        result = await score_record(state, target, record)
        if isinstance(result.value, dict):
            result.value = {**result.value, SHORTENED: 0.0}
        return result

    return score


def transcript_text(turns: list[Turn], upto: int, include_last_answer: bool = False) -> str:
    """The conversation up to turn ``upto``: every earlier exchange, then turn ``upto``'s user message
    (and its answer too if ``include_last_answer``). What a judge reads as context."""
    lines: list[str] = []
    for turn in turns:
        if turn.number > upto:
            break
        lines.append(f"[Turn {turn.number}] User: {turn.user}")
        if turn.number < upto or include_last_answer:
            lines.append(f"[Turn {turn.number}] Assistant: {turn.assistant}")
    return "\n\n".join(lines)
