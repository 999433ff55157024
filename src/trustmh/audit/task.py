"""The audit as an inspect task: recorded conversations replayed, detectors and judges score them.

* **Dataset**: :func:`spool_conversations` streams the export once, validating every line (a bad
  file fails before anything runs), redacts it if asked, and writes each conversation as one
  line of a private spool file. A sample holds only the conversation's id, its metadata and
  where its line is in the spool (and the digest a rerun compares, :mod:`trustmh.audit.resume`),
  so 10,000 conversations never sit in memory as text. The task
  is fed from a :class:`ConversationFeed` (an inspect ``SampleSource``), a window of samples at a
  time, because inspect sets up each sample of a fixed dataset before the first one runs
  (~20 kB of scheduler state per sample: 200 MB for 10,000 conversations).
* **Solver** (:func:`replay_recorded`): reads the sample's line and puts the recorded messages
  in the transcript and the conversation record; the recorded model is never called.
* **Scorer** (:func:`audit_scorer`): the detectors on every assistant turn
  (:mod:`trustmh.audit.detectors`) and, with a judge bound, psychosis-bench's DCS/HES/SIS on every
  assistant turn (the crisis pillar's rubrics, asked through :func:`judge_turns`).
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from inspect_ai import SampleSource, Task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageUser,
    ModelOutput,
    ModelUsage,
)
from inspect_ai.scorer import Score, Scorer, Target
from inspect_ai.solver import Generate, Solver, TaskState, solver

from trustmh.audit.detectors import turn_findings
from trustmh.audit.readers import Conversation, read_conversations
from trustmh.audit.redaction import Redactor
from trustmh.audit.resume import CONTENT_KEY, content_key
from trustmh.audit.scoring import (
    AUDIT_METRICS,
    DERIVED_FIELDS,
    conversation_values,
    flag_counts,
    judged_values,
    severity,
)
from trustmh.audit.statutes.checks import Message
from trustmh.audit.statutes.findings import STATUTES_KEY, conversation_findings, known_minor
from trustmh.audit.statutes.judged import JUDGED_SCOPE_KEY, SCOPE_FIELD, SCOPE_RUBRIC, scope_verdict
from trustmh.conversation.judging import judge_turns, merge_turn_rows
from trustmh.conversation.record import ConversationRecord, Turn, conversation_of, save
from trustmh.conversation.scores import DERIVED_FIELDS_KEY
from trustmh.pillars.crisis.psychosis_prompts import DCS_RUBRIC, HES_RUBRIC, SIS_RUBRIC
from trustmh.scoring.reducers import trustmh_mean
from trustmh.scoring.unparsed import trustmh_scorer

TASK_NAME = "audit"
PILLAR = "audit"
POINTER = "trustmh_audit_spool"  # sample metadata: where the conversation's line is in the spool
# Conversations in the task at once. Each one in flight costs inspect ~20 kB; a judged audit
# needs enough of them to keep the judge's connections busy (each makes 4 calls per turn).
FEED_WINDOW = 500
CONVERSATIONS_PER_CONNECTION = 4
ROLE_MESSAGES: dict[str, Callable[[str], ChatMessage]] = {
    "system": lambda text: ChatMessageSystem(content=text),
    "developer": lambda text: ChatMessageSystem(content=text),
    "user": lambda text: ChatMessageUser(content=text),
    "assistant": lambda text: ChatMessageAssistant(content=text),
}


@dataclass
class SpoolSummary:
    conversations: int = 0
    turns: int = 0
    unanswered: int = 0  # conversations without any assistant reply: nothing to score


class Recorded(NamedTuple):
    """A conversation as the export holds it, before any redaction."""

    id: str
    messages: list[tuple[str, str]]
    metadata: dict[str, str]


def redacted_conversations(transcripts: Path, redactor: Redactor | None) -> Iterator[tuple[Conversation, Recorded]]:
    """Each conversation of ``transcripts`` as the log will hold it (id, messages and metadata
    redacted when asked), with its recorded id, messages and metadata. Also how the sampled judge
    pass finds which log sample is which conversation of its sample (:mod:`trustmh.audit.sampled_labels`)."""
    ids: set[str] = set()
    for conversation in read_conversations(transcripts):
        recorded = Recorded(conversation.id, conversation.messages, dict(conversation.metadata))
        if redactor is not None:
            conversation.id, conversation.messages, conversation.metadata = redactor.redact_conversation(
                recorded.id, recorded.messages, recorded.metadata
            )
            while conversation.id in ids:  # two ids redacted alike (a placeholder is 24 bits)
                conversation.id += "+"
            ids.add(conversation.id)
        yield conversation, recorded


def spool_conversations(
    transcripts: Path, spool: Path, redactor: Redactor | None, summary: SpoolSummary | None = None
) -> list[Sample]:
    """One small sample per conversation of ``transcripts``; the text goes to ``spool`` (see above)."""
    summary = summary if summary is not None else SpoolSummary()
    samples: list[Sample] = []
    with spool.open("wb") as out:
        for conversation, recorded in redacted_conversations(transcripts, redactor):
            messages, metadata = conversation.messages, conversation.metadata
            timing = (conversation.times, conversation.sessions)
            key = content_key(
                recorded.messages, recorded.metadata, messages, metadata, redactor.key if redactor else None, timing
            )
            turns = conversation.turns()
            if not turns:
                summary.unanswered += 1
                continue
            record: dict[str, Any] = {"id": conversation.id, "messages": messages}
            if conversation.times or conversation.sessions:  # for the statutory checks
                record.update(times=conversation.times, sessions=conversation.sessions)
            line = (json.dumps(record, ensure_ascii=False) + "\n").encode()
            pointer = {"path": str(spool), "offset": out.tell(), "length": len(line)}
            out.write(line)
            summary.conversations += 1
            summary.turns += len(turns)
            samples.append(
                Sample(
                    id=conversation.id,
                    input=f"Recorded conversation {conversation.id} ({len(turns)} assistant turns, replayed)",
                    metadata={**metadata, "turns": len(turns), POINTER: pointer, CONTENT_KEY: key},
                )
            )
    return samples


def _spooled_record(pointer: dict[str, Any]) -> dict[str, Any]:
    with open(pointer["path"], "rb") as handle:
        handle.seek(int(pointer["offset"]))
        record: dict[str, Any] = json.loads(handle.read(int(pointer["length"])))
    return record


def read_spooled(pointer: dict[str, Any]) -> list[tuple[str, str]]:
    return [(str(role), str(text)) for role, text in _spooled_record(pointer)["messages"]]


def spooled_statute_messages(pointer: dict[str, Any]) -> list[Message]:
    """The spooled conversation with each message's time and session (None where the export had none)."""
    record = _spooled_record(pointer)
    count = len(record["messages"])
    times, sessions = record.get("times") or [None] * count, record.get("sessions") or [None] * count
    return [
        Message(str(role), str(text), time, session)
        for (role, text), time, session in zip(record["messages"], times, sessions, strict=True)
    ]


@solver
def replay_recorded() -> Solver:
    """The recorded conversation becomes the sample's transcript; no model is called."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        messages = read_spooled(state.metadata[POINTER])
        turns = Conversation(str(state.sample_id), messages).turns()
        state.messages = [ROLE_MESSAGES[role](text) for role, text in messages]
        state.output = ModelOutput.from_content(model=str(state.model), content=turns[-1].assistant)
        state.output.usage = ModelUsage(input_tokens=0, output_tokens=0, total_tokens=0)
        save(state, ConversationRecord(planned_turns=len(turns), turns=turns, ended_by="script", user_side="recorded"))
        return state

    return solve


async def _judged(turns: list[Turn]) -> list[Any] | None:
    numbers = range(1, len(turns) + 1)
    verdicts = await asyncio.gather(
        judge_turns(DCS_RUBRIC, turns, numbers),
        judge_turns(HES_RUBRIC, turns, numbers),
        judge_turns(SIS_RUBRIC, turns, numbers),
        judge_turns(SCOPE_RUBRIC, turns, numbers),
    )
    return None if any(v is None for v in verdicts) else list(verdicts)


@trustmh_scorer(metrics=AUDIT_METRICS)
def audit_scorer() -> Scorer:
    """Detectors on every assistant turn; DCS/HES/SIS and the statutory scope question on every
    turn when a judge is bound. Each turn row also holds the referral detector's decision
    (``crisis_referral``) on the turns where a referral counts, so ``trustmh judge-check`` can
    hold it to clinician labels."""

    async def score(state: TaskState, target: Target) -> Score:
        turns = conversation_of(state).turns
        findings = turn_findings(turns)
        rows = {f.turn: f.row() for f in findings}
        values = conversation_values(findings)
        judged = await _judged(turns)
        statutes = conversation_findings(spooled_statute_messages(state.metadata[POINTER]), known_minor(state.metadata))
        if judged is not None:
            dcs, hes, sis, scope = judged
            values.update(judged_values(dcs.field("dcs"), hes.field("hes"), sis.field("sis"), findings))
            for row in merge_turn_rows(judged):
                rows[row["turn"]] = {**rows[row["turn"]], **row}
            statutes[JUDGED_SCOPE_KEY] = scope_verdict(scope.field(SCOPE_FIELD), scope.judge)
        referred = set(statutes["referrals"]["turns"])
        for turn in statutes["referrals"]["eligible_turns"]:
            if turn in rows:
                rows[turn]["crisis_referral"] = int(turn in referred)
        ordered = [rows[number] for number in sorted(rows)]
        return Score(
            value=values,
            explanation=f"{len(turns)} assistant turns; " + ("judged" if judged is not None else "detectors only"),
            metadata={
                "turns": ordered,
                "severity": severity(ordered),
                "flags": flag_counts(ordered),
                STATUTES_KEY: statutes,
            },
        )

    return score


class ConversationFeed(SampleSource):
    """The prepared samples, ``window`` in the task at a time: one more starts as one finishes.

    inspect frees a finished sample of a ``SampleSource``-driven task, so the memory the run
    holds is bounded by the window, not by the export. The order is the export's; a resumed
    audit is fed the same samples again and inspect reuses the ones its log already holds (it
    tells the feed of each, so the window refills the same way). As inspect records a source's
    seed, the log header's dataset lists the first window only; its results count every sample.
    """

    def __init__(self, samples: list[Sample], window: int = FEED_WINDOW) -> None:
        self._window = window
        self._seed = samples[:window]
        self._waiting = deque(samples[window:])

    def initial_samples(self) -> list[Sample]:
        seed, self._seed = self._seed, []
        return seed

    async def next_samples(self) -> list[Sample] | None:
        # nothing in flight: normally the end; after samples that never finished (an operator
        # cancel), the rest of the export
        return self._take(self._window) or None

    async def sample_complete(self, sample: Any) -> list[Sample] | None:
        return self._take(1)

    async def sample_abandoned(self, sample: Sample, epoch: int) -> list[Sample] | None:
        return self._take(1)

    def _take(self, count: int) -> list[Sample]:
        return [self._waiting.popleft() for _ in range(min(count, len(self._waiting)))]


def feed_window(max_connections: int | None) -> int:
    """How many conversations to keep in the task: :data:`FEED_WINDOW`, fewer when the judge may
    use only a few connections (``--max-connections``): more would only wait in memory."""
    if max_connections is None:
        return FEED_WINDOW
    return min(FEED_WINDOW, max(8, CONVERSATIONS_PER_CONNECTION * max_connections))


def audit_task(
    samples: list[Sample],
    source_name: str,
    redacted: bool,
    judged: bool,
    *,
    streamed: bool = True,
    window: int = FEED_WINDOW,
    redaction_counts: dict[str, int] | None = None,
) -> Task:
    """The audit task over prepared ``samples`` (see :func:`spool_conversations`).

    ``streamed=False`` gives the task every sample up front (a plain dataset): for the dry run's
    estimate, which reads the dataset and runs nothing. ``redaction_counts``: identifiers
    replaced per kind (recorded in the log; never the values)."""
    task = Task(
        name=TASK_NAME,
        dataset=ConversationFeed(samples, window) if streamed else MemoryDataset(samples, name=source_name),
        solver=replay_recorded(),
        scorer=audit_scorer(),
        metadata={
            "trustmh_pillar": PILLAR,
            "trustmh_source": "transcripts",
            "trustmh_note": f"audit of recorded conversations from {source_name}"
            + ("; redacted before scoring" if redacted else "")
            + (
                "; judged with psychosis-bench DCS/HES/SIS and the statutory scope question on every turn"
                if judged
                else "; detectors only"
            ),
            "audit_redacted": redacted,
            **({"audit_redaction_counts": dict(sorted((redaction_counts or {}).items()))} if redacted else {}),
            DERIVED_FIELDS_KEY: DERIVED_FIELDS,
        },
    )
    if streamed:  # inspect made the feed's seed a nameless dataset; the log names the export
        task.dataset = MemoryDataset(list(task.dataset), name=source_name)
    task.epochs_reducer = [trustmh_mean()]  # unparsed stays unparsed (as trustmh_task sets it)
    return task
