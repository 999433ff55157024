"""``dialogue_mindeval``: MindEval-style (trustmh protocol), or MindEval's own prompts from a clone.

**Label.** Without ``-T mindeval_clone=PATH`` this task is *MindEval-style (trustmh protocol)*: MindEval's
set-up (SWORDHealth/mind-eval, v1: profiles, five criteria, 1-6) with trustmh's own prompts, since
MindEval's repository has no licence and its text cannot be shipped. With a clone of MindEval the
user points to, the counsellor, member and judge prompts are MindEval's, read from the clone at run
time (:mod:`trustmh.dialogue.mindeval_clone`). The label is in the log (task metadata
``protocol_label``), the README, ``trustmh tasks --protocol`` and the report.

A simulated member (inspect role ``user``) plays one of MindEval's 50 patient profiles
(``mindeval/profiles.jsonl``: narrative + attributes) for N turns (default 10); the model under
test is the counsellor. The judge rates the conversation on MindEval's five criteria, 1-6, at the
end and at earlier checkpoints (by default half-way), which shows how scores change with
conversation length; scores are also broken down by the profile's depressive-symptom severity.
"""

from __future__ import annotations

import asyncio
from typing import Any

from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import Score, Scorer, Target
from inspect_ai.solver import TaskState

import trustmh.dialogue.protocol  # noqa: F401  (declares these tasks' upstream protocols)
from trustmh.conversation.judging import judge_conversation
from trustmh.conversation.record import ConversationRecord, conversation_metrics, conversation_score
from trustmh.conversation.scores import DERIVED_FIELDS_KEY
from trustmh.conversation.solver import STARTER_MAX_TOKENS, TARGET_SYSTEM_KEY, conversation
from trustmh.data.loaders.mindeval import PatientProfile, load_mindeval
from trustmh.data.starter import load_starter
from trustmh.dialogue.mindeval_clone import (
    OPENING,
    MindEvalClone,
    clone_rubric,
    conversation_text,
    load_clone,
    profile_values,
)
from trustmh.dialogue.mindeval_prompts import COUNSELLOR_SYSTEM, CRITERIA, JUDGE_RUBRIC
from trustmh.scoring import metrics as m
from trustmh.scoring.panel import judge_panel
from trustmh.scoring.rubric import JudgeResult, Rubric
from trustmh.scoring.unparsed import trustmh_scorer
from trustmh.scoring.verbatim import check_parser
from trustmh.tasking.declare import judged_free_text, trustmh_task

PILLAR = "dialogue"
STYLE_LABEL = "MindEval-style (trustmh protocol)"
CLONE_LABEL = "MindEval (prompts read from the user's clone of SWORDHealth/mind-eval)"
STARTER = "trustmh.dialogue.starter"
DEFAULT_TURNS = 10
STARTER_TURNS = 3
CHECKPOINTS = ("half", "end")
MINDEVAL_GENERATION = judged_free_text(
    STARTER_MAX_TOKENS,
    upstream="MindEval (SWORDHealth/mind-eval): no max_tokens or temperature set (provider defaults)",
    why="temperature 0 so reruns agree; 1024 tokens bound the cost and let each turn finish",
)
METRICS = (
    *CRITERIA,
    "overall",
    "overall[severity=*]",
    *(f"{c}[severity=*]" for c in CRITERIA),
    "overall_at_half",
    "judge_unparsed_rate",
    "turns",
)
# Attributes given to the simulated member besides the narrative (the judge sees them all).
MEMBER_ATTRIBUTES = ("name", "age", "conversation_style", "recent_mood", "depressive_symptoms", "anxious_symptoms")


def severity(profile: PatientProfile) -> str:
    """minimal / mild / moderate / severe, from ``depressive_symptoms`` ("severe depressive symptoms")."""
    text = str(profile.attributes.get("depressive_symptoms", "")).strip().lower()
    return text.split()[0] if text else "unknown"


def member_persona(profile: PatientProfile) -> str:
    details = "; ".join(
        f"{key.replace('_', ' ')}: {profile.attributes[key]}" for key in MEMBER_ATTRIBUTES if key in profile.attributes
    )
    return f"{profile.narrative}\n\nAbout you — {details}."


def member_details(attributes: dict[str, Any]) -> str:
    lines = "\n".join(f"- {key.replace('_', ' ')}: {value}" for key, value in attributes.items())
    return f"Member profile:\n{lines}"


def clone_metadata(clone: MindEvalClone, profile: PatientProfile) -> dict[str, Any]:
    """Per-sample prompts from the clone: the counsellor's and the member's system prompts, the
    member's fixed first message, and the values the judge prompt is filled with."""
    values = profile_values(profile.attributes, profile.narrative)
    return {
        TARGET_SYSTEM_KEY: clone.fill("clinician", values),
        "user_system_prompt": clone.fill("member", values),
        "opening": OPENING,
        "profile_values": values,
    }


def mindeval_dataset(source: str, data_dir: str | None, clone: MindEvalClone | None = None) -> MemoryDataset:
    if source == "benchmark":
        profiles = load_mindeval(data_dir)
    else:
        profiles = [
            PatientProfile(r["id"], r["member_attributes"], r["member_narrative"])
            for r in load_starter(STARTER, "mindeval_profiles.jsonl")
        ]
    samples = [
        Sample(
            id=profile.id,
            input=str(profile.attributes.get("name", profile.id)),
            metadata={
                "persona": member_persona(profile),
                "member_attributes": profile.attributes,
                "severity": severity(profile),
                **(clone_metadata(clone, profile) if clone is not None else {}),
            },
        )
        for profile in profiles
    ]
    return MemoryDataset(samples, name=f"mindeval_{source}")


# The score fields built from each checkpoint's criteria: the final one's as they are, the half-way one's
# into overall_at_half.
DERIVED_FIELDS = {name: [name, "overall", "overall_at_half"] for name in (*CRITERIA, "overall")}


def checkpoint_turns(total: int) -> dict[str, int]:
    """Turn counts to judge: ``half`` (rounded down, at least 1) and ``end``; equal ones merge."""
    return {"half": max(1, total // 2), "end": total}


def verdict_fields(result: JudgeResult | None, suffix: str = "") -> dict[str, Any]:
    """Criterion scores and their mean (``overall``); ``None`` each when unparsed."""
    if result is None:
        return {}
    verdict = result.verdict
    fields: dict[str, Any] = {f"{c}{suffix}": (None if verdict is None else float(verdict[c])) for c in CRITERIA}
    fields[f"overall{suffix}"] = None if verdict is None else sum(float(verdict[c]) for c in CRITERIA) / len(CRITERIA)
    return fields


@trustmh_scorer(
    metrics=[
        *(m.mean(c, c) for c in CRITERIA),
        m.mean("overall", "overall"),
        m.grouped("overall", "severity", "overall", kind="mean"),
        *(m.grouped(c, "severity", c, kind="mean") for c in CRITERIA),
        m.mean("overall_at_half", "overall_at_half"),
        m.rate("judge_unparsed", "judge_unparsed_rate"),
        *conversation_metrics(),
    ]
)
def mindeval_scorer(clone: MindEvalClone | None = None, clone_judge: Rubric | None = None) -> Scorer:
    """MindEval's five criteria (1-6) on the whole conversation, and overall at the half-way point.

    With a ``clone``, the judge prompt is MindEval's, filled as MindEval fills it (``clone_judge``)."""

    async def judge_at(state: TaskState, turns: list[Any]) -> JudgeResult | None:
        if clone is None or clone_judge is None:
            details = member_details(state.metadata.get("member_attributes", {}))
            return await judge_conversation(JUDGE_RUBRIC, turns, preamble=details)
        prompt = clone.fill("judge", state.metadata["profile_values"], conversation_str=conversation_text(turns))
        return await judge_panel(clone_judge, prompt, turns[-1].assistant)

    @conversation_score
    async def score(state: TaskState, target: Target, record: ConversationRecord) -> Score:
        values: dict[str, Any] = {"turns": float(len(record.turns))}
        checkpoints = checkpoint_turns(len(record.turns))
        results = await asyncio.gather(*(judge_at(state, record.turns[:k]) for k in checkpoints.values()))
        by_checkpoint = dict(zip(checkpoints, results, strict=True))
        end = by_checkpoint["end"]
        if end is None:
            return Score(value=values, explanation=f"{len(record.turns)} turns; judge metrics not scored (no judge)")
        values.update(verdict_fields(end))
        values["overall_at_half"] = verdict_fields(by_checkpoint["half"], "_at_half")["overall_at_half"]
        values["judge_unparsed"] = float(end.verdict is None)
        return Score(
            value=values,
            metadata={
                "checkpoints": [
                    {"turn": checkpoints[name], "checkpoint": name, **verdict_fields(result)}
                    for name, result in by_checkpoint.items()
                ],
                "judge_error": end.error,
                "user_side": record.user_side,
            },
        )

    return score


# In the default run (its starter slice: 2 profiles x 3 turns, the embedded model on both sides), as
# every conversation task is; the rest of the dialogue group is not.
@trustmh_task(
    pillar=PILLAR,
    datasets=("mindeval",),
    metrics=METRICS,
    generation=MINDEVAL_GENERATION,
    needs_judge=True,
    in_default_run=True,
)
def dialogue_mindeval(
    source: str = "auto",
    data_dir: str | None = None,
    turns: int | None = None,
    max_tokens: int | None = None,
    system_prompt: str = COUNSELLOR_SYSTEM,
    mindeval_clone: str | None = None,
    parser: str = "corrected",
) -> Task:
    """MindEval-style (trustmh protocol): a simulated member from a patient profile; five criteria, 1-6.

    ``mindeval_clone``: a clone of SWORDHealth/mind-eval; its counsellor, member and judge prompts
    are then used (MindEval's own protocol, not shipped with trustmh: no licence). ``parser``: how
    the clone's judge reply is read, ``corrected`` or ``upstream`` (MindEval's parse_judge_scores).
    """
    check_parser(parser)
    count = turns or (STARTER_TURNS if source == "starter" else DEFAULT_TURNS)
    clone = load_clone(mindeval_clone) if mindeval_clone else None
    metadata: dict[str, Any] = {
        "turns": count,
        "conversation": True,
        DERIVED_FIELDS_KEY: DERIVED_FIELDS,
        "protocol_label": CLONE_LABEL if clone else STYLE_LABEL,
    }
    judge = None
    if clone is not None:
        judge = clone_rubric(clone, tuple(CRITERIA), parser)
        metadata.update(judge_parser=parser, mindeval_clone=clone.log_metadata())
    return Task(
        dataset=mindeval_dataset(source, data_dir, clone),
        solver=conversation(max_turns=count, system_prompt=None if clone else system_prompt),
        scorer=mindeval_scorer(clone, judge),
        metadata=metadata,
    )
