"""Ethics tasks (TrustMH-Bench protocol on EthicMH)."""

from __future__ import annotations

from inspect_ai import Task

from trustmh.pillars.ethics.dataset import ethicmh_dataset
from trustmh.pillars.ethics.scorers import ethics_scorer
from trustmh.pillars.protocol import check_parser
from trustmh.tasking import judged_free_text, trustmh_task


@trustmh_task(
    pillar="ethics",
    datasets=("ethicmh",),
    metrics=("accuracy", "sc1", "sc2", "sc3", "sc4", "sc5"),
    # The choice comes first in the JSON answer, so the starter's short budget still scores
    # accuracy; benchmark runs leave room for the reasoning the APA judge rates.
    generation=judged_free_text(64, upstream="TrustMH-Bench Ethics: temperature 0, no token limit"),
)
def ethics_ethicmh(
    source: str = "auto", data_dir: str | None = None, max_tokens: int | None = None, parser: str = "corrected"
) -> Task:
    """EthicMH: pick the most ethically sound option (accuracy); a judge rates APA principles 1-5."""
    return Task(
        dataset=ethicmh_dataset(source, data_dir),
        scorer=ethics_scorer(check_parser(parser)),
        metadata={"parser": parser},
    )
