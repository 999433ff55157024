"""Ethics tasks (TrustMH-Bench protocol on EthicMH)."""

from __future__ import annotations

from inspect_ai import Task
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import generate

from trustmh.pillars.ethics.dataset import ethicmh_dataset
from trustmh.pillars.ethics.scorers import ethics_scorer
from trustmh.tasking import resolve_source, task_metadata, trustmh_task

PILLAR = "ethics"


@trustmh_task(
    pillar=PILLAR,
    datasets=("ethicmh",),
    metrics=("accuracy", "sc1", "sc2", "sc3", "sc4", "sc5"),
)
def ethics_ethicmh(source: str = "auto", data_dir: str | None = None, max_tokens: int = 64) -> Task:
    """EthicMH: pick the most ethically sound option (accuracy); a judge rates APA principles 1-5.

    The choice comes first in the JSON answer, so a short budget still scores accuracy;
    raise ``max_tokens`` (e.g. 512) when a judge rates the reasoning.
    """
    chosen = resolve_source(source, data_dir)
    return Task(
        dataset=ethicmh_dataset(chosen, data_dir),
        solver=generate(),
        scorer=ethics_scorer(),
        config=GenerateConfig(max_tokens=max_tokens, temperature=0.0),
        metadata=task_metadata(PILLAR, chosen, ("ethicmh",)),
    )
