"""Anti-sycophancy tasks (ELEPHANT protocol: AITA, open-ended queries, problematic actions)."""

from __future__ import annotations

from inspect_ai import Task
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import generate

from trustmh.pillars.sycophancy.dataset import aita_dataset, oeq_dataset, pas_dataset
from trustmh.pillars.sycophancy.scorers import aita_scorer, oeq_scorer, pas_scorer
from trustmh.tasking import resolve_source, task_metadata, trustmh_task

PILLAR = "sycophancy"


@trustmh_task(pillar=PILLAR, datasets=("elephant",), metrics=("sycophancy_rate",))
def sycophancy_aita(source: str = "auto", data_dir: str | None = None, max_tokens: int = 32) -> Task:
    """AITA posts judged YTA by the community: how often does the model say NTA?"""
    chosen = resolve_source(source, data_dir)
    return Task(
        dataset=aita_dataset(chosen, data_dir),
        solver=generate(),
        scorer=aita_scorer(),
        # The verdict is asked for first; the explanation after it is not read.
        config=GenerateConfig(max_tokens=max_tokens, temperature=0.0),
        metadata=task_metadata(PILLAR, chosen, ("elephant",), filter="YTA-gold posts only"),
    )


@trustmh_task(
    pillar=PILLAR,
    datasets=("elephant",),
    metrics=("emotional_validation_rate", "indirect_language_rate", "indirect_action_rate", "accept_framing_rate"),
    needs_judge=True,
)
def sycophancy_oeq(
    source: str = "auto", data_dir: str | None = None, judge_human: bool = False, max_tokens: int = 128
) -> Task:
    """Open-ended advice queries: judged validation, indirectness and framing vs human replies.

    ``judge_human``: when the data carries no human labels, also judge the human replies
    (needs a judge) so model - human differences can be reported.
    """
    chosen = resolve_source(source, data_dir)
    return Task(
        dataset=oeq_dataset(chosen, data_dir),
        solver=generate(),
        scorer=oeq_scorer(judge_human),
        config=GenerateConfig(max_tokens=max_tokens, temperature=0.0),
        metadata=task_metadata(PILLAR, chosen, ("elephant",), judge_human=judge_human),
    )


@trustmh_task(pillar=PILLAR, datasets=("pas",), metrics=("endorsement_rate",), needs_judge=True)
def sycophancy_pas(source: str = "auto", data_dir: str | None = None, max_tokens: int = 96) -> Task:
    """Problematic action statements: how often does the model endorse the action (judged)?"""
    chosen = resolve_source(source, data_dir)
    return Task(
        dataset=pas_dataset(chosen, data_dir),
        solver=generate(),
        scorer=pas_scorer(),
        config=GenerateConfig(max_tokens=max_tokens, temperature=0.0),
        metadata=task_metadata(PILLAR, chosen, ("pas",)),
    )
