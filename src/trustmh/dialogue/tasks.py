"""``dialogue_mentalbench``: MentalBench-style generation and seven-attribute judging in inspect.

For bulk work (100,000 responses, several judges, resumable) use ``trustmh generate`` and
``trustmh judge``; this task is the same protocol for inspect users: the model under test
answers each help-seeker's message, asked with MentalBench's generation prompt, and the judge
(``--judge`` / ``--model-role judge=M``) rates the answer with MentalBench's rubric
(:mod:`trustmh.mentalalign.rubric`).
"""

from __future__ import annotations

from pathlib import Path

from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageUser, GenerateConfig
from inspect_ai.scorer import Score, Scorer, Target
from inspect_ai.solver import TaskState

import trustmh.dialogue.protocol  # noqa: F401  (declares these tasks' upstream protocols)
from trustmh.bulk.generate import load_conversations
from trustmh.data.registry import resolve_file
from trustmh.data.starter import load_starter
from trustmh.dialogue.mentalbench_upstream import log_metadata, upstream_generation_prompt, upstream_rubric
from trustmh.mentalalign.rubric import (
    GENERATION_MAX_TOKENS,
    GENERATION_PROMPT,
    GENERATION_TEMPERATURE,
    MENTALALIGN_RUBRIC,
    generation_prompt,
)
from trustmh.mentalalign.schema import (
    ATTRIBUTES,
    CONTEXT_COLUMN,
    HUMAN_FILE,
    ID_COLUMN,
    OVERALL,
    composite_means,
)
from trustmh.scoring import metrics as m
from trustmh.scoring.output import output_text
from trustmh.scoring.panel import judge_fields
from trustmh.scoring.rubric import Rubric
from trustmh.scoring.unparsed import trustmh_scorer
from trustmh.scoring.verbatim import choose_judge_prompts
from trustmh.tasking.declare import Generation, greedy, trustmh_task

STARTER = "trustmh.dialogue.starter"
METRICS = (*(a.lower() for a in ATTRIBUTES), "overall", "css", "ars", "judge_unparsed_rate", "response_words")


def _sample(sample_id: str, context: str, template: str = GENERATION_PROMPT) -> Sample:
    return Sample(
        id=sample_id,
        input=[ChatMessageUser(content=generation_prompt(context, template))],
        metadata={"context": context},
    )


def conversations(source: str, data_dir: str | None, conversations_file: str | None) -> MemoryDataset:
    """Starter messages (asked in our own words), or a MentalBench CSV/xlsx (``context`` column) or
    MentalAlign-70k contexts (asked with MentalBench's own generation prompt, read from upstream)."""
    if source == "starter":
        samples = [_sample(r["id"], r["context"]) for r in load_starter(STARTER, "mentalbench.jsonl")]
    else:
        path = Path(conversations_file) if conversations_file else resolve_file("mentalalign70k", HUMAN_FILE, data_dir)
        table = load_conversations(path)
        template = upstream_generation_prompt(data_dir)
        samples = [
            _sample(str(row.get(ID_COLUMN) or index), row[CONTEXT_COLUMN], template)
            for index, row in enumerate(table.rows)
            if row[CONTEXT_COLUMN].strip()
        ]
    return MemoryDataset(samples, name="mentalbench")


@trustmh_scorer(
    metrics=[
        *(m.mean(attribute, attribute.lower()) for attribute in ATTRIBUTES),
        m.mean(OVERALL, "overall"),
        m.mean("css", "css"),
        m.mean("ars", "ars"),
        m.rate("judge_unparsed", "judge_unparsed_rate"),
        m.mean("response_words", "response_words"),
    ]
)
def mentalbench_scorer(rubric: Rubric = MENTALALIGN_RUBRIC) -> Scorer:
    """Seven judge attributes, the judge's Overall, and CSS (cognitive) and ARS (affective) means.

    ``rubric``: our fenced rubric (starter) or upstream's verbatim one (benchmark mode)."""

    async def score(state: TaskState, target: Target) -> Score:
        answer = output_text(state)
        values: dict[str, float | str | None] = {
            "response_words": None if answer is None else float(len(answer.split()))
        }
        if answer is None:
            return Score(value=values, explanation="no answer recorded")
        judged, extra = await judge_fields(rubric, state.metadata["context"], answer)
        if judged:
            values.update(judged)
            values.update({name.lower(): value for name, value in composite_means(judged).items()})
        return Score(value=values, answer=answer[:200], metadata=extra or None)

    return score


@trustmh_task(
    pillar="dialogue",
    datasets=("mentalalign70k",),
    metrics=METRICS,
    generation=Generation(
        starter=greedy(200),
        benchmark=GenerateConfig(max_tokens=GENERATION_MAX_TOKENS, temperature=GENERATION_TEMPERATURE),
        upstream="MentalBench-Align generate_responses.py: max_tokens 512, temperature 0.7",
        why="same as upstream; `-T greedy=true` for temperature 0",
    ),
    needs_judge=True,
    benchmark_file_args=("conversations_file",),
)
def dialogue_mentalbench(
    source: str = "auto",
    data_dir: str | None = None,
    conversations_file: str | None = None,
    max_tokens: int | None = None,
    greedy: bool = False,
    judge_prompts: str = "auto",
) -> Task:
    """MentalBench: answer a help-seeker; a judge rates seven MentalAlign attributes (1-5).

    ``judge_prompts``: ``upstream`` (MentalBench-Align's own judge prompt and settings, read from its
    pinned ``llm_judge_evaluation.py``; the default in benchmark mode) or ``trustmh`` (our fenced
    rubric; the default on starter messages).
    """
    chosen = choose_judge_prompts(judge_prompts, source)
    metadata: dict[str, object] = {
        "judge_prompts": chosen,
        "generation_prompt": "upstream" if source == "benchmark" else "trustmh",
    }
    rubric = MENTALALIGN_RUBRIC
    if chosen == "upstream":
        rubric, template = upstream_rubric(data_dir)
        metadata["judge_prompt_text"] = log_metadata(template)
    return Task(
        dataset=conversations(source, data_dir, conversations_file),
        scorer=mentalbench_scorer(rubric),
        metadata=metadata,
    )
