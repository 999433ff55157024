"""Robustness of the Reliability pillar's MCQ tasks (USMLE-mental, EmoBench EU).

The dataset builders and scorers are the Reliability pillar's. MCQ prompts carry no
``perturb_span``, so the whole user message is perturbed except option markers ("A.",
"(B)") and answer-cue lines.
"""

from __future__ import annotations

from inspect_ai import Task

from trustmh.pillars.reliability.dataset import emobench_dataset, usmle_dataset
from trustmh.pillars.reliability.scorers import emobench_scorer, mcq_scorer
from trustmh.pillars.reliability.tasks import ANSWER_GENERATION
from trustmh.pillars.robustness.tasks import DEFAULT_INTENSITIES, DEFAULT_KINDS, METRICS, PILLAR, robustness_task
from trustmh.tasking import trustmh_task

# The 0/1 field of the reliability scorers' score value.
MCQ_FIELD = "correct"
# The base tasks' own settings: the clean pass must be the base task's request, in starter
# runs too (it used 16 tokens where the base tasks use 64, so the two were different requests).
MCQ_GENERATION = ANSWER_GENERATION
# EmoBench's EU accuracy needs both the emotion and its cause right.
EMOBENCH_FIELD = "joint_correct"


@trustmh_task(pillar=PILLAR, datasets=("psyeval",), metrics=METRICS, generation=MCQ_GENERATION)
def robustness_usmle_mental(
    source: str = "auto",
    data_dir: str | None = None,
    kinds: str = DEFAULT_KINDS,
    intensities: str = DEFAULT_INTENSITIES,
    seed: int = 0,
) -> Task:
    """USMLE-mental MCQ accuracy, clean vs perturbed question text (relative drop)."""
    return robustness_task(
        dataset=usmle_dataset(source, data_dir),
        scorer=mcq_scorer(),
        score_field=MCQ_FIELD,
        metadata={"base_task": "reliability_usmle_mental"},
        kinds=kinds,
        intensities=intensities,
        seed=seed,
    )


@trustmh_task(pillar=PILLAR, datasets=("emobench",), metrics=METRICS, generation=MCQ_GENERATION)
def robustness_emobench_eu(
    source: str = "auto",
    data_dir: str | None = None,
    kinds: str = DEFAULT_KINDS,
    intensities: str = DEFAULT_INTENSITIES,
    seed: int = 0,
) -> Task:
    """EmoBench EU (English) accuracy, clean vs perturbed scenarios (relative drop)."""
    return robustness_task(
        dataset=emobench_dataset(source, data_dir, language="en"),
        scorer=emobench_scorer(),
        score_field=EMOBENCH_FIELD,
        metadata={"base_task": "reliability_emobench_eu"},
        kinds=kinds,
        intensities=intensities,
        seed=seed,
    )
