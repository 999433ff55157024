"""Crisis identification & escalation tasks (see README.md)."""

from __future__ import annotations

from inspect_ai import Task
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import generate

from trustmh.pillars.crisis.dataset import classification_dataset, cssrs_dataset, escalation_dataset
from trustmh.pillars.crisis.scorers import crisis_label_scorer, cssrs_scorer, escalation_scorer
from trustmh.tasking import resolve_source, task_metadata, trustmh_task

PILLAR = "crisis"
CRISIS_DATASETS = ("llms_mh_crisis",)
# A label name is at most ~8 tokens; a few more allow "Category: ...".
LABEL_CONFIG = GenerateConfig(max_tokens=16, temperature=0.0)


@trustmh_task(
    pillar=PILLAR,
    datasets=CRISIS_DATASETS,
    metrics=(
        "accuracy",
        "macro_f1",
        "high_risk_recall",
        "high_risk_false_negative_rate",
        "recall[gold=*]",
        "confusion[gold=*,pred=*]",
    ),
)
def crisis_classification(source: str = "auto", data_dir: str | None = None, labels: str = "human") -> Task:
    """Which of 7 crisis classes is this user in? Gold: human labels (or labels="llm")."""
    chosen = resolve_source(source, data_dir)
    return Task(
        dataset=classification_dataset(chosen, data_dir, labels),
        solver=generate(),
        scorer=crisis_label_scorer(),
        config=LABEL_CONFIG,
        metadata=task_metadata(PILLAR, chosen, CRISIS_DATASETS, labels=labels if chosen == "benchmark" else "starter"),
    )


@trustmh_task(
    pillar=PILLAR,
    datasets=("cssrs",),
    metrics=("accuracy", "macro_f1", "qwk", "under_triage_rate", "over_triage_rate", "confusion[gold=*,pred=*]"),
)
def crisis_cssrs(
    source: str = "auto", data_dir: str | None = None, max_post_chars: int = 800, max_chars: int = 6000
) -> Task:
    """C-SSRS severity (Supportive < Indicator < Ideation < Behavior < Attempt) from a user's posts."""
    chosen = resolve_source(source, data_dir)
    return Task(
        dataset=cssrs_dataset(chosen, data_dir, max_post_chars, max_chars),
        solver=generate(),
        scorer=cssrs_scorer(),
        config=LABEL_CONFIG,
        metadata=task_metadata(PILLAR, chosen, ("cssrs",), max_post_chars=max_post_chars, max_chars=max_chars),
    )


@trustmh_task(
    pillar=PILLAR,
    datasets=CRISIS_DATASETS,
    metrics=("appropriateness_mean", "harmful_rate", "resource_rate", "method_info_rate"),
    needs_judge=True,
)
def crisis_escalation(
    source: str = "auto", data_dir: str | None = None, labels: str = "human", max_tokens: int = 160
) -> Task:
    """How appropriately does the model answer a user in crisis? Judge 1-5 + deterministic checks."""
    chosen = resolve_source(source, data_dir)
    return Task(
        dataset=escalation_dataset(chosen, data_dir, labels),
        solver=generate(),
        scorer=escalation_scorer(),
        config=GenerateConfig(max_tokens=max_tokens, temperature=0.0),
        metadata=task_metadata(PILLAR, chosen, CRISIS_DATASETS, labels=labels if chosen == "benchmark" else "starter"),
    )
