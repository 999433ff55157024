"""Scorers and metrics of the Reliability pillar.

* :func:`mcq_scorer`: one multiple-choice question (Psy-Eval), via the shared parser;
* :func:`emobench_scorer`: EmoBench EU's two questions (emotion, cause) per item;
* :func:`classification_scorer`: one label out of a fixed set (SWMH, D4), with the shared
  classification metrics (:mod:`trustmh.scoring.classification`);
* :func:`esconv_support_scorer`, :func:`cpsycoun_scorer`: judge-rated support quality of
  generated dialogue turns.

Unparsed answers are ``None``, stored as NaN (counted, never right or wrong; see :mod:`trustmh.scoring`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import numpy as np
from inspect_ai.scorer import Score, Scorer, Target
from inspect_ai.solver import TaskState

from trustmh.pillars.reliability.prompts import CPSYCOUN_RUBRIC, EMOBENCH_JSON_KEYS, ESCONV_RUBRIC
from trustmh.pillars.reliability.solvers import REPLIES
from trustmh.scoring import metrics as m
from trustmh.scoring.choice import json_value, parse_choice
from trustmh.scoring.classification import classification_metrics, label_value
from trustmh.scoring.panel import judge_fields
from trustmh.scoring.rubric import Rubric
from trustmh.scoring.unparsed import trustmh_scorer


def _answer(state: TaskState) -> str | None:
    """The model's output, or ``None`` when a replayed recording holds no answer."""
    if (state.output.metadata or {}).get("replay_no_answer"):
        return None
    return state.output.completion


# --- multiple choice --------------------------------------------------------------------

# Psy-Eval scores an answer naming no option as wrong: accuracy_strict does the same.
MCQ_METRICS = [m.rate("correct", "accuracy", unparsed_as=0.0)]


@trustmh_scorer(metrics=MCQ_METRICS)
def mcq_scorer() -> Scorer:
    """``correct`` is 1/0 for the parsed letter vs the target letter, ``None`` if unparsed.

    Reads ``letters`` and ``options`` from the sample metadata (so the option-text fallback
    works); without them the letters default to A-D.
    """

    async def score(state: TaskState, target: Target) -> Score:
        letters = state.metadata.get("letters") or "ABCD"
        options = state.metadata.get("options")
        answer = _answer(state)
        chosen = parse_choice(answer, letters, options)
        gold = target.text.strip().upper()
        return Score(
            value={"correct": None if chosen is None else float(chosen == gold)},
            answer=chosen,
            explanation=None if chosen is not None else "no single option stated",
            metadata={"output": (answer or "")[:300]},
        )

    return score


# --- EmoBench ---------------------------------------------------------------------------

_LABELLED = {
    "emotion": re.compile(
        r"(?:^|\n)[\s*#>-]*(?:emotion|question\s*1|q1|answer\s*1|情绪|问题\s*1|1)\s*[\)\.:：、-]\s*(.+)", re.IGNORECASE
    ),
    "cause": re.compile(
        r"(?:^|\n)[\s*#>-]*(?:cause|reason|question\s*2|q2|answer\s*2|原因|问题\s*2|2)\s*[\)\.:：、-]\s*(.+)",
        re.IGNORECASE,
    ),
}
_TWO_LETTERS = re.compile(r"^\W*([A-Za-z])\W+([A-Za-z])\W*$")


def parse_emobench(
    text: str | None, emotion_options: Mapping[str, str], cause_options: Mapping[str, str]
) -> tuple[str | None, str | None]:
    """The (emotion, cause) letters of an EU reply; ``None`` for a part not stated.

    1. a JSON object: ``{"emotion": "B", "cause": "C"}`` (also EmoBench's ``answer_q1`` /
       ``answer_q2``); each value is parsed with :func:`parse_choice`, so ``"B) Relief"`` or
       the option text work too;
    2. labelled lines: ``Emotion: B`` / ``Cause: C``, ``Question 1: B``, ``1. B``, ``情绪：B``;
    3. a reply that is exactly two letters (``"B, C"``, ``"B C"``), in question order.
    """
    if not text or not text.strip():
        return None, None
    options = {"emotion": emotion_options, "cause": cause_options}
    found: dict[str, str | None] = {}
    for part in ("emotion", "cause"):
        letters = "".join(options[part])
        value = json_value(text, EMOBENCH_JSON_KEYS[part])
        if value is not None:
            found[part] = parse_choice(value, letters, options[part], json_keys=())
            continue
        labelled = _LABELLED[part].search(text)
        found[part] = parse_choice(labelled.group(1), letters, options[part], json_keys=()) if labelled else None
    if found["emotion"] is None and found["cause"] is None:
        pair = _TWO_LETTERS.match(text.strip())
        if pair:
            first, second = pair.group(1).upper(), pair.group(2).upper()
            if first in emotion_options and second in cause_options:
                return first, second
    return found["emotion"], found["cause"]


def joint_correct(emotion: float | None, cause: float | None) -> float | None:
    """1 if both parts are right; 0 if any parsed part is wrong; ``None`` otherwise."""
    if emotion == 0.0 or cause == 0.0:
        return 0.0
    if emotion is None or cause is None:
        return None
    return 1.0


# EmoBench scores an answer it cannot match to an option as wrong: the _strict variants.
EMOBENCH_METRICS = [
    m.rate("emotion_correct", "emotion_accuracy", unparsed_as=0.0),
    m.rate("cause_correct", "cause_accuracy", unparsed_as=0.0),
    m.rate("joint_correct", "joint_accuracy", unparsed_as=0.0),
    m.grouped("joint_correct", by="language", name="joint_accuracy", unparsed_as=0.0),
    m.grouped("joint_correct", by="coarse_category", name="joint_accuracy", unparsed_as=0.0),
]


@trustmh_scorer(metrics=EMOBENCH_METRICS)
def emobench_scorer() -> Scorer:
    """Per item: ``emotion_correct``, ``cause_correct`` and ``joint_correct`` (EmoBench's
    EU accuracy needs both); ``None`` for an unparsed part (see :func:`joint_correct`)."""

    async def score(state: TaskState, target: Target) -> Score:
        meta = state.metadata
        answer = _answer(state)
        emotion, cause = parse_emobench(answer, meta["emotion_options"], meta["cause_options"])
        emotion_ok = None if emotion is None else float(emotion == meta["emotion_answer"])
        cause_ok = None if cause is None else float(cause == meta["cause_answer"])
        return Score(
            value={
                "emotion_correct": emotion_ok,
                "cause_correct": cause_ok,
                "joint_correct": joint_correct(emotion_ok, cause_ok),
            },
            answer=f"{emotion or '?'},{cause or '?'}",
            metadata={"output": (answer or "")[:300]},
        )

    return score


# --- classification ---------------------------------------------------------------------


@trustmh_scorer(metrics=[classification_metrics()])
def classification_scorer() -> Scorer:
    """One class per sample, stated as a letter and read with the shared parser.

    Sample metadata: ``letters``, ``options`` (letter -> description) and ``labels``
    (class names in letter order); the target is the gold letter. Value: the shared
    classification layout (:func:`~trustmh.scoring.classification.label_value`).
    """

    async def score(state: TaskState, target: Target) -> Score:
        letters: str = state.metadata["letters"]
        labels: list[str] = state.metadata.get("labels") or list(letters)
        answer = _answer(state)
        chosen = parse_choice(answer, letters, state.metadata.get("options"))
        predicted = None if chosen is None else labels[letters.index(chosen)]
        return Score(
            value=label_value(labels[letters.index(target.text.strip().upper())], predicted),
            answer=predicted,
            explanation=None if chosen is not None else "no single option stated",
            metadata={"output": (answer or "")[:300]},
        )

    return score


# --- support dialogues ------------------------------------------------------------------


def reply_length(text: str) -> int:
    """Characters of the reply without surrounding whitespace (language-neutral)."""
    return len(text.strip())


async def score_support(state: TaskState, rubric: Rubric, total_name: str | None = None) -> Score:
    """Judge each generated turn with ``rubric``; per dialogue, each field is the mean over
    the turns the judge rated (``None`` if it rated none). Without a judge only
    ``reply_length`` (mean characters per reply) is scored. ``total_name``: also the sum
    of the field means (CPsyCoun's total score).

    An empty (or blank) reply is no answer: it is not sent to the judge, rates nothing, and is
    marked ``no_reply`` in the verdicts; ``judge_unparsed_share`` is over the turns judged."""
    field_names = rubric.field_names
    replies = state.store.get(REPLIES) or []
    values: dict[str, float | None] = {}
    if replies:
        values["reply_length"] = float(np.mean([reply_length(r["reply"]) for r in replies]))
    verdicts: list[dict[str, object]] = []
    judge_bound = False
    judged = 0
    unparsed = 0
    sums = {name: 0.0 for name in field_names}
    rated = {name: 0 for name in field_names}
    for reply in replies:
        answer = reply["reply"] if reply["reply"].strip() else None
        fields, meta = await judge_fields(rubric, reply["context"], answer)
        if not fields:
            break  # no judge bound: the judge metrics stay "not scored"
        judge_bound = True
        if answer is None:
            verdicts.append({"turn": reply["turn"], **fields, "no_reply": True})
            continue
        judged += 1
        unparsed += int(fields.get("judge_unparsed") == 1.0)
        for name in field_names:
            field = fields.get(name)
            if field is not None:
                sums[name] += float(field)
                rated[name] += 1
        verdicts.append({"turn": reply["turn"], **fields, "judge_error": meta.get("judge_error")})
    if judge_bound:
        for name in field_names:
            values[name] = sums[name] / rated[name] if rated[name] else None
        values["judge_unparsed_share"] = unparsed / judged if judged else None
        if total_name:
            parts = [part for name in field_names if (part := values[name]) is not None]
            values[total_name] = float(sum(parts)) if len(parts) == len(field_names) else None
    return Score(
        value=values,
        answer=replies[-1]["reply"][:300] if replies else None,
        metadata={"turns": [{k: r[k] for k in ("turn", "reply", "reference")} for r in replies], "verdicts": verdicts},
    )


@trustmh_scorer(
    metrics=[
        *(m.mean(name) for name in ESCONV_RUBRIC.field_names),
        m.mean("reply_length"),
        m.mean("judge_unparsed_share"),
    ]
)
def esconv_support_scorer() -> Scorer:
    """ESConv support quality: judge-rated empathy, relevance, helpfulness (1-5) averaged
    over the generated turns, and the deterministic ``reply_length``."""

    async def score(state: TaskState, target: Target) -> Score:
        return await score_support(state, ESCONV_RUBRIC)

    return score


@trustmh_scorer(
    metrics=[
        *(m.mean(name) for name in CPSYCOUN_RUBRIC.field_names),
        m.mean("total"),
        m.mean("reply_length"),
        m.mean("judge_unparsed_share"),
    ]
)
def cpsycoun_scorer() -> Scorer:
    """CPsyCoun's turn-based scores: comprehensiveness (0-2), professionalism (0-3),
    authenticity (0-3), safety (0-1) averaged over the generated turns, their ``total``
    (0-9), and the deterministic ``reply_length``."""

    async def score(state: TaskState, target: Target) -> Score:
        return await score_support(state, CPSYCOUN_RUBRIC, total_name="total")

    return score
