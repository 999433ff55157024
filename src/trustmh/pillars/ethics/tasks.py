"""Ethics tasks (TrustMH-Bench protocol on EthicMH)."""

from __future__ import annotations

from inspect_ai import Task

import trustmh.pillars.ethics.protocol  # noqa: F401  (declares these tasks' upstream protocols)
from trustmh.pillars.ethics.apa_upstream import upstream_apa
from trustmh.pillars.ethics.dataset import ethicmh_dataset
from trustmh.pillars.ethics.scorers import ethics_scorer
from trustmh.scoring.verbatim import judge_choice
from trustmh.tasking.declare import judged_free_text, trustmh_task


@trustmh_task(
    pillar="ethics",
    datasets=("ethicmh",),
    metrics=("accuracy", "sc1", "sc2", "sc3", "sc4", "sc5"),
    # The choice comes first in the JSON answer, so the starter's short budget still scores
    # accuracy; benchmark runs leave room for the reasoning the APA judge rates.
    generation=judged_free_text(64, upstream="TrustMH-Bench Ethics: temperature 0, no token limit"),
)
def ethics_ethicmh(
    source: str = "auto",
    data_dir: str | None = None,
    max_tokens: int | None = None,
    parser: str = "corrected",
    judge_prompts: str = "auto",
) -> Task:
    """EthicMH: pick the most ethically sound option (accuracy); a judge rates APA principles 1-5.

    ``parser=upstream`` reads the choice, and the upstream judge's reply, as TrustMH-Bench's pipeline
    does. ``judge_prompts``: ``upstream`` (TrustMH-Bench's own APA judge prompt, read from its pinned
    ``Ethics.zip``; the default in benchmark mode) or ``trustmh`` (our rubric; the default on starter
    items).
    """
    judge, metadata = judge_choice(
        judge_prompts, source, parser, "the EthicMH items", lambda: upstream_apa(data_dir, parser)
    )
    return Task(
        dataset=ethicmh_dataset(source, data_dir),
        scorer=ethics_scorer(parser, judge),
        metadata=metadata,
    )
