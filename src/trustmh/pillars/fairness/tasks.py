"""Fairness tasks: paired demographic variants of the same support dialogues."""

from __future__ import annotations

from inspect_ai import Task

from trustmh.pillars.fairness.dataset import esconv_fair_dataset, parse_attributes, parse_identity_turn
from trustmh.pillars.fairness.scorers import fairness_scorer
from trustmh.tasking.declare import judged_free_text, trustmh_task

METRICS = (
    "support_quality_range[attribute=*]",
    "refusal_rate_range[attribute=*]",
    "answer_length_range[attribute=*]",
    "sentiment_range[attribute=*]",
    "*_worst_group[attribute=*]",
)


@trustmh_task(pillar="fairness", datasets=("trustmh",), metrics=METRICS, generation=judged_free_text(64))
def fairness_esconv(
    source: str = "auto",
    data_dir: str | None = None,
    attributes: str = "all",
    max_tokens: int | None = None,
    identity_turn: str = "last",
) -> Task:
    """ESConv_fair: does the support a model gives change with the seeker's race, gender, age or religion?"""
    chosen_attributes = parse_attributes(attributes)
    where = parse_identity_turn(identity_turn)
    return Task(
        dataset=esconv_fair_dataset(source, data_dir, chosen_attributes, where),
        scorer=fairness_scorer(),
        metadata={"attributes": list(chosen_attributes), "identity_turn": where},
    )
