"""VERA-MH's protocol in ``crisis_simulated_risk``'s benchmark mode: personas, judge and score.

* **Simulated user.** Each row of VERA-MH's ``data/personas.tsv`` is one persona; its prompt is
  ``data/persona_prompt_template.txt`` formatted with the row (``template.format(**row)``, as
  ``generate_conversations/utils.py`` does), and is the simulated user's system prompt, used
  verbatim. Each persona is run ``runs`` times (upstream's ``generate.py`` default: 5), for
  ``max_turns`` exchanges (its default: 30 messages, i.e. 15 exchanges, the persona first).
* **Judge.** The conversation is laid out as upstream's ``format_conversation_summary`` writes
  its conversation files (``user: ...`` / ``chatbot: ...`` blocks, an empty line between them)
  and judged by :func:`~trustmh.pillars.crisis.vera_rubric.walk_rubric`: each question is one
  request, the system message ``rubric_prompt_beginning`` with the conversation, the user
  message the question, at the provider's default settings. The judge is the first judge bound
  (``--judge``): the walk depends on each answer, so a panel has no single path to share.
* **Score.** :mod:`~trustmh.pillars.crisis.vera_score` (upstream's ``score_results``).
"""

from __future__ import annotations

import csv
import hashlib
import io
from dataclasses import asdict
from typing import Any

from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser, GenerateConfig

from trustmh.conversation.record import Turn
from trustmh.data.upstream import upstream_text
from trustmh.data.upstream_code import UpstreamCodeError, template_text
from trustmh.pillars.crisis.vera_rubric import (
    BEGINNING_KEY,
    BEST_PRACTICE,
    DAMAGING,
    JUDGE_KEY,
    NOT_RELEVANT,
    RUBRIC_KEY,
    WALK_FUNCTION,
    VeraRubric,
    Walk,
    walk_rubric,
)
from trustmh.pillars.crisis.vera_score import DIMENSIONS_KEY, JUDGED, RATING_PREFIX
from trustmh.scoring.panel import judge_model

PERSONAS_KEY = "vera_mh/data/personas.tsv"
TEMPLATE_KEY = "vera_mh/data/persona_prompt_template.txt"
UPSTREAM_KEYS = (PERSONAS_KEY, TEMPLATE_KEY, RUBRIC_KEY, BEGINNING_KEY, JUDGE_KEY, "vera_mh/judge/score.py")
RUNS = 5  # generate.py's --runs default
TURNS = 15  # generate.py's --turns default, 30 messages, is 15 exchanges
USER_PREFIX, CHATBOT_PREFIX = "user:", "chatbot:"  # format_conversation_summary's speaker prefixes


def vera_personas(data_dir: str | None) -> list[dict[str, str]]:
    """The personas' rows, each with its ``prompt``: the template formatted with the row."""
    template = upstream_text(TEMPLATE_KEY, data_dir)
    rows = list(csv.DictReader(io.StringIO(upstream_text(PERSONAS_KEY, data_dir)), delimiter="\t"))
    for row in rows:
        try:
            row["prompt"] = template.format(**row)
        except KeyError as missing:
            raise UpstreamCodeError(f"{PERSONAS_KEY}: persona {row.get('Name')!r} has no column {missing}") from None
    return rows


def vera_dataset(data_dir: str | None, runs: int) -> MemoryDataset:
    """One sample per persona and run (``omar-run1``…); the persona prompt drives the user side."""
    samples = [
        Sample(
            id=f"{row['Name'].lower()}-run{run}",
            input=row["Name"],
            metadata={
                # The user side reads only user_system_prompt; "persona" names who it plays (log, resume key).
                "persona": f"VERA-MH persona {row['Name']} ({row['Current Risk Level']} risk)",
                "user_system_prompt": row["prompt"],
                "risk": row["Current Risk Level"].strip().lower(),
                "vera_persona": row["Name"],
                "run": run,
            },
        )
        for row in vera_personas(data_dir)
        for run in range(1, runs + 1)
    ]
    return MemoryDataset(samples, name="vera_mh_personas")


def conversation_text(turns: list[Turn]) -> str:
    """The conversation as upstream's ``format_conversation_summary`` writes it (no early end:
    upstream's termination signals are an empty set)."""
    messages = [
        (prefix, text) for t in turns for prefix, text in ((USER_PREFIX, t.user), (CHATBOT_PREFIX, t.assistant))
    ]
    if not messages:
        return "No conversation recorded."
    return "\n".join(f"{prefix} {text}\n" for prefix, text in messages)


async def judge_vera(rubric: VeraRubric, turns: list[Turn], parser: str) -> Walk | None:
    """Walk the rubric over the conversation with the first judge; ``None`` with no judge bound."""
    model = judge_model()
    if model is None:
        return None
    system = rubric.system_prompt(conversation_text(turns))

    async def ask(prompt: str) -> str | None:
        messages: list[ChatMessage] = [ChatMessageSystem(content=system), ChatMessageUser(content=prompt)]
        output = await model.generate(messages, config=GenerateConfig())
        return None if output.error else output.completion

    walk = await walk_rubric(rubric, ask, parser)
    walk.judge = str(model)
    return walk


def walk_fields(walk: Walk) -> dict[str, Any]:
    """Score fields: ``vera_mh_judged`` (unparsed when the walk could not finish) and each reached
    dimension's label (``vera_mh:<dimension>``)."""
    if walk.unparsed:
        return {JUDGED: None}
    return {JUDGED: 1.0, **{f"{RATING_PREFIX}{dimension}": label for dimension, label in walk.scores.items()}}


def pooled_counts(walk: Walk) -> tuple[float, float, float] | None:
    """Best practice, high harm and rated (reached, relevant) dimensions: what the VERA score pools."""
    if walk.unparsed:
        return None
    rated = [label for label in walk.scores.values() if label != NOT_RELEVANT]
    return float(rated.count(BEST_PRACTICE)), float(rated.count(DAMAGING)), float(len(rated))


def walk_metadata(walk: Walk, rubric: VeraRubric) -> dict[str, Any]:
    """What the log keeps per conversation: each question asked, the reply and its reading."""
    return {
        DIMENSIONS_KEY: list(rubric.dimensions),
        "vera_mh_questions": [{k: v for k, v in asdict(a).items() if k != "prompt"} for a in walk.asked],
        "vera_mh_stopped_at": walk.stopped_at,
        "vera_mh_scores": walk.scores,
        "judge_model": walk.judge,
    }


def log_metadata(rubric: VeraRubric, parser: str) -> dict[str, Any]:
    """The task metadata ``judge_prompt_text``: upstream's judge text as read, its origin and hash."""
    question = template_text(rubric.question_template)
    return {
        "system": {"origin": BEGINNING_KEY, "template": rubric.beginning, "sha256": _sha(rubric.beginning)},
        "question": {"origin": f"{JUDGE_KEY}:{WALK_FUNCTION}:prompt", "template": question, "sha256": _sha(question)},
        "parser": parser,
    }


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()
