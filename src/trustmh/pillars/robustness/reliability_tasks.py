"""Robustness of the Reliability pillar's MCQ tasks (USMLE-mental, EmoBench EU).

The dataset builders and scorers come from ``trustmh.pillars.reliability``. MCQ prompts carry no ``perturb_span``, so the whole user
message is perturbed except option markers ("A.", "(B)") and answer-cue lines.
"""

from __future__ import annotations

from inspect_ai import Task

from trustmh.pillars.reliability.dataset import emobench_dataset, usmle_dataset
from trustmh.pillars.reliability.scorers import emobench_scorer, mcq_scorer
from trustmh.pillars.robustness.tasks import (
    DEFAULT_INTENSITIES,
    DEFAULT_KINDS,
    LABEL_CONFIG,
    METRICS,
    PILLAR,
    robustness_task,
)
from trustmh.tasking import resolve_source, task_metadata, trustmh_task

# The 0/1 field of the reliability scorers' score value.
MCQ_FIELD = "correct"
# EmoBench's EU accuracy needs both the emotion and its cause right.
EMOBENCH_FIELD = "joint_correct"


@trustmh_task(pillar=PILLAR, datasets=("psyeval",), metrics=METRICS)
def robustness_usmle_mental(
    source: str = "auto",
    data_dir: str | None = None,
    kinds: str = DEFAULT_KINDS,
    intensities: str = DEFAULT_INTENSITIES,
    seed: int = 0,
) -> Task:
    """USMLE-mental MCQ accuracy, clean vs perturbed question text (relative drop)."""
    chosen = resolve_source(source, data_dir)
    return robustness_task(
        dataset=usmle_dataset(chosen, data_dir),
        scorer=mcq_scorer(),
        score_field=MCQ_FIELD,
        config=LABEL_CONFIG,
        metadata=task_metadata(PILLAR, chosen, ("psyeval",), base_task="reliability_usmle_mental"),
        kinds=kinds,
        intensities=intensities,
        seed=seed,
    )


@trustmh_task(pillar=PILLAR, datasets=("emobench",), metrics=METRICS)
def robustness_emobench_eu(
    source: str = "auto",
    data_dir: str | None = None,
    kinds: str = DEFAULT_KINDS,
    intensities: str = DEFAULT_INTENSITIES,
    seed: int = 0,
) -> Task:
    """EmoBench EU (English) accuracy, clean vs perturbed scenarios (relative drop)."""
    chosen = resolve_source(source, data_dir)
    return robustness_task(
        dataset=emobench_dataset(chosen, data_dir, language="en"),
        scorer=emobench_scorer(),
        score_field=EMOBENCH_FIELD,
        config=LABEL_CONFIG,
        metadata=task_metadata(PILLAR, chosen, ("emobench",), base_task="reliability_emobench_eu"),
        kinds=kinds,
        intensities=intensities,
        seed=seed,
    )
