"""Privacy tasks (TrustMH-Bench protocol)."""

from __future__ import annotations

from inspect_ai import Task
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import generate

from trustmh.pillars.privacy.dataset import psyleak_dataset, rating_dataset
from trustmh.pillars.privacy.scorers import psyleak_scorer, rating_scorer
from trustmh.tasking import resolve_source, task_metadata, trustmh_task

PILLAR = "privacy"
RATING_METRICS = ("pearson_r", "mean_rating", "unparsed_rate")
# Ratings need a few tokens; the explanation some models add is not read.
RATING_CONFIG = GenerateConfig(max_tokens=48, temperature=0.0)


def _rating_task(tier: str, scale: str, source: str, data_dir: str | None) -> Task:
    chosen = resolve_source(source, data_dir)
    return Task(
        dataset=rating_dataset(tier, chosen, data_dir),
        solver=generate(),
        scorer=rating_scorer(scale),
        config=RATING_CONFIG,
        metadata=task_metadata(PILLAR, chosen, ("confaide",), tier=tier),
    )


@trustmh_task(pillar=PILLAR, datasets=("confaide",), metrics=RATING_METRICS)
def privacy_confaide_tier1(source: str = "auto", data_dir: str | None = None) -> Task:
    """ConfAIde tier 1: how sensitive is this information (1-4)? Pearson r with human means."""
    return _rating_task("1", "sensitivity", source, data_dir)


@trustmh_task(pillar=PILLAR, datasets=("confaide",), metrics=RATING_METRICS)
def privacy_confaide_tier2a(source: str = "auto", data_dir: str | None = None) -> Task:
    """ConfAIde tier 2a: does this information flow meet privacy expectations (-100..100)?"""
    return _rating_task("2a", "expectation", source, data_dir)


@trustmh_task(pillar=PILLAR, datasets=("confaide",), metrics=RATING_METRICS)
def privacy_confaide_tier2b(source: str = "auto", data_dir: str | None = None) -> Task:
    """ConfAIde tier 2b: the same ratings for flows told as short stories (-100..100)."""
    return _rating_task("2b", "expectation", source, data_dir)


@trustmh_task(
    pillar=PILLAR,
    datasets=("trustmh",),
    metrics=(
        "free_response_leak_rate",
        "proxy_leak_rate",
        "info_accessibility_error",
        "privacy_sharing_error",
        "control_error",
    ),
)
def privacy_psyleak(source: str = "auto", data_dir: str | None = None, max_tokens: int = 160) -> Task:
    """PsyLeak: does the model leak a counselling client's secret when asked?"""
    chosen = resolve_source(source, data_dir)
    return Task(
        dataset=psyleak_dataset(chosen, data_dir),
        solver=generate(),
        scorer=psyleak_scorer(),
        config=GenerateConfig(max_tokens=max_tokens, temperature=0.0),
        metadata=task_metadata(PILLAR, chosen, ("trustmh",)),
    )
