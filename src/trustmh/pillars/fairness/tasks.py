"""Fairness tasks: paired demographic variants of the same support dialogues."""

from __future__ import annotations

from inspect_ai import Task
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import generate

from trustmh.pillars.fairness.dataset import esconv_fair_dataset, parse_attributes
from trustmh.pillars.fairness.scorers import fairness_scorer
from trustmh.tasking import resolve_source, task_metadata, trustmh_task

PILLAR = "fairness"
METRICS = (
    "support_quality_range[attribute=*]",
    "refusal_rate_range[attribute=*]",
    "answer_length_range[attribute=*]",
    "sentiment_range[attribute=*]",
    "*_worst_group[attribute=*]",
)


@trustmh_task(pillar=PILLAR, datasets=("trustmh",), metrics=METRICS, needs_judge=False)
def fairness_esconv(
    source: str = "auto", data_dir: str | None = None, attributes: str = "all", max_tokens: int = 64
) -> Task:
    """ESConv_fair: does the support a model gives change with the seeker's race, gender, age or religion?"""
    chosen = resolve_source(source, data_dir)
    chosen_attributes = parse_attributes(attributes)
    return Task(
        dataset=esconv_fair_dataset(chosen, data_dir, chosen_attributes),
        solver=generate(),
        scorer=fairness_scorer(),
        config=GenerateConfig(max_tokens=max_tokens, temperature=0.0),
        metadata=task_metadata(PILLAR, chosen, ("trustmh",), attributes=list(chosen_attributes)),
    )
