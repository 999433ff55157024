"""``dialogue_mentalbench``: MentalBench-style generation and seven-attribute judging in inspect.

For bulk work (100,000 responses, several judges, resumable) use ``trustmh generate`` and
``trustmh judge``; this task is the same protocol for inspect users: the model under test
answers each help-seeker's message, and the judge (``--judge`` / ``--model-role judge=M``)
rates the answer with :data:`trustmh.dialogue.rubric.MENTALALIGN_RUBRIC`.
"""

from __future__ import annotations

from pathlib import Path

from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser, GenerateConfig
from inspect_ai.scorer import Score, Scorer, Target
from inspect_ai.solver import TaskState, generate

from trustmh.bulk.generate import CONTEXT_COLUMN, DEFAULT_SYSTEM_PROMPT, load_conversations
from trustmh.data.registry import resolve_file
from trustmh.dialogue.rubric import AFFECTIVE_RESONANCE, ATTRIBUTES, COGNITIVE_SUPPORT, MENTALALIGN_RUBRIC
from trustmh.scoring import metrics as m
from trustmh.scoring.judge import judge_fields
from trustmh.scoring.output import output_text
from trustmh.scoring.unparsed import trustmh_scorer
from trustmh.tasking import load_starter, resolve_source, task_metadata, trustmh_task

PILLAR = "dialogue"
STARTER = "trustmh.dialogue.starter"
METRICS = (*(a.lower() for a in ATTRIBUTES), "css", "ars", "judge_unparsed_rate", "response_words")


def _sample(sample_id: str, context: str) -> Sample:
    return Sample(
        id=sample_id,
        input=[ChatMessageSystem(content=DEFAULT_SYSTEM_PROMPT), ChatMessageUser(content=context)],
        metadata={"context": context},
    )


def conversations(source: str, data_dir: str | None, conversations_file: str | None) -> MemoryDataset:
    """Starter messages, a MentalBench CSV/xlsx (``context`` column), or MentalAlign-70k contexts."""
    if source == "starter":
        samples = [_sample(r["id"], r["context"]) for r in load_starter(STARTER, "mentalbench.jsonl")]
    else:
        path = (
            Path(conversations_file)
            if conversations_file
            else resolve_file("mentalalign70k", "human_judge.xlsx", data_dir)
        )
        table = load_conversations(path)
        samples = [
            _sample(str(row.get("ConvID") or index), row[CONTEXT_COLUMN])
            for index, row in enumerate(table.rows)
            if row[CONTEXT_COLUMN].strip()
        ]
    return MemoryDataset(samples, name="mentalbench")


def _aggregate(values: dict[str, float | str | None], names: tuple[str, ...]) -> float | None:
    scores = [values.get(name) for name in names]
    if any(not isinstance(score, (int, float)) for score in scores):
        return None
    return sum(float(s) for s in scores) / len(scores)  # type: ignore[arg-type]


@trustmh_scorer(
    metrics=[
        *(m.mean(attribute, attribute.lower()) for attribute in ATTRIBUTES),
        m.mean("css", "css"),
        m.mean("ars", "ars"),
        m.rate("judge_unparsed", "judge_unparsed_rate"),
        m.mean("response_words", "response_words"),
    ]
)
def mentalbench_scorer() -> Scorer:
    """Seven judge attributes plus CSS (cognitive) and ARS (affective) means per response."""

    async def score(state: TaskState, target: Target) -> Score:
        answer = output_text(state)
        values: dict[str, float | str | None] = {
            "response_words": None if answer is None else float(len(answer.split()))
        }
        if answer is None:
            return Score(value=values, explanation="no answer recorded")
        judged, extra = await judge_fields(MENTALALIGN_RUBRIC, state.metadata["context"], answer)
        if judged:
            values.update(judged)
            values["css"] = _aggregate(judged, COGNITIVE_SUPPORT)
            values["ars"] = _aggregate(judged, AFFECTIVE_RESONANCE)
        return Score(value=values, answer=answer[:200], metadata=extra or None)

    return score


@trustmh_task(pillar=PILLAR, datasets=("mentalalign70k",), metrics=METRICS, needs_judge=True)
def dialogue_mentalbench(
    source: str = "auto",
    data_dir: str | None = None,
    conversations_file: str | None = None,
    max_tokens: int = 200,
) -> Task:
    """MentalBench: answer a help-seeker; a judge rates seven MentalAlign attributes (1-5)."""
    chosen = "benchmark" if conversations_file else resolve_source(source, data_dir)
    return Task(
        dataset=conversations(chosen, data_dir, conversations_file),
        solver=generate(),
        scorer=mentalbench_scorer(),
        config=GenerateConfig(max_tokens=max_tokens, temperature=0.0),
        metadata=task_metadata(PILLAR, chosen, ("mentalalign70k",)),
    )
