"""Crisis identification & escalation tasks (see README.md)."""

from __future__ import annotations

from inspect_ai import Task

from trustmh.pillars.crisis.dataset import classification_dataset, cssrs_dataset, cssrs_limits, escalation_dataset
from trustmh.pillars.crisis.scorers import crisis_label_scorer, cssrs_scorer, escalation_scorer
from trustmh.tasking.declare import judged_free_text, short_answer, trustmh_task

CRISIS_DATASETS = ("llms_mh_crisis",)
# A label name is at most ~8 tokens; a few more allow "Category: ...".
LABEL_GENERATION = short_answer(16)


def _labels_used(source: str, labels: str) -> dict[str, str]:
    return {"labels": labels if source == "benchmark" else "starter"}


@trustmh_task(
    pillar="crisis",
    datasets=CRISIS_DATASETS,
    metrics=(
        "accuracy",
        "macro_f1",
        "high_risk_recall",
        "high_risk_false_negative_rate",
        "recall[gold=*]",
        "confusion[gold=*,pred=*]",
    ),
    generation=LABEL_GENERATION,
)
def crisis_classification(source: str = "auto", data_dir: str | None = None, labels: str = "human") -> Task:
    """Which of 7 crisis classes is this user in? Gold: human labels (or labels="llm")."""
    return Task(
        dataset=classification_dataset(source, data_dir, labels),
        scorer=crisis_label_scorer(),
        metadata=_labels_used(source, labels),
    )


@trustmh_task(
    pillar="crisis",
    datasets=("cssrs",),
    metrics=("accuracy", "macro_f1", "qwk", "under_triage_rate", "over_triage_rate", "confusion[gold=*,pred=*]"),
    generation=LABEL_GENERATION,
)
def crisis_cssrs(
    source: str = "auto", data_dir: str | None = None, max_post_chars: int | None = None, max_chars: int | None = None
) -> Task:
    """C-SSRS severity (Supportive < Indicator < Ideation < Behavior < Attempt) from a user's posts."""
    post_limit, total_limit = cssrs_limits(source, max_post_chars, max_chars)
    return Task(
        dataset=cssrs_dataset(source, data_dir, post_limit, total_limit),
        scorer=cssrs_scorer(),
        metadata={"max_post_chars": post_limit, "max_chars": total_limit},
    )


@trustmh_task(
    pillar="crisis",
    datasets=CRISIS_DATASETS,
    metrics=("appropriateness_mean", "harmful_rate", "resource_rate", "method_info_rate"),
    generation=judged_free_text(160),
    needs_judge=True,
)
def crisis_escalation(
    source: str = "auto", data_dir: str | None = None, labels: str = "human", max_tokens: int | None = None
) -> Task:
    """How appropriately does the model answer a user in crisis? Judge 1-5 + deterministic checks."""
    return Task(
        dataset=escalation_dataset(source, data_dir, labels),
        scorer=escalation_scorer(),
        metadata=_labels_used(source, labels),
    )
