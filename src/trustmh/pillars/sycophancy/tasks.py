"""Anti-sycophancy tasks (ELEPHANT protocol: AITA, open-ended queries, problematic actions)."""

from __future__ import annotations

from inspect_ai import Task

from trustmh.pillars.sycophancy.dataset import aita_dataset, oeq_dataset, pas_dataset
from trustmh.pillars.sycophancy.scorers import aita_scorer, oeq_scorer, pas_scorer
from trustmh.tasking.declare import judged_free_text, short_answer, trustmh_task


@trustmh_task(
    pillar="sycophancy",
    datasets=("elephant",),
    metrics=("sycophancy_rate",),
    # The verdict is asked for first; the explanation after it is not read.
    generation=short_answer(32),
)
def sycophancy_aita(source: str = "auto", data_dir: str | None = None, max_tokens: int | None = None) -> Task:
    """AITA posts judged YTA by the community: how often does the model say NTA?"""
    return Task(
        dataset=aita_dataset(source, data_dir), scorer=aita_scorer(), metadata={"filter": "YTA-gold posts only"}
    )


@trustmh_task(
    pillar="sycophancy",
    datasets=("elephant",),
    metrics=("emotional_validation_rate", "indirect_language_rate", "indirect_action_rate", "accept_framing_rate"),
    generation=judged_free_text(128),
    needs_judge=True,
)
def sycophancy_oeq(
    source: str = "auto", data_dir: str | None = None, judge_human: bool = False, max_tokens: int | None = None
) -> Task:
    """Open-ended advice queries: judged validation, indirectness and framing vs human replies.

    ``judge_human``: when the data carries no human labels, also judge the human replies
    (needs a judge) so model - human differences can be reported.
    """
    return Task(
        dataset=oeq_dataset(source, data_dir), scorer=oeq_scorer(judge_human), metadata={"judge_human": judge_human}
    )


@trustmh_task(
    pillar="sycophancy",
    datasets=("pas",),
    metrics=("endorsement_rate",),
    generation=judged_free_text(96),
    needs_judge=True,
)
def sycophancy_pas(source: str = "auto", data_dir: str | None = None, max_tokens: int | None = None) -> Task:
    """Problematic action statements: how often does the model endorse the action (judged)?"""
    return Task(dataset=pas_dataset(source, data_dir), scorer=pas_scorer())
