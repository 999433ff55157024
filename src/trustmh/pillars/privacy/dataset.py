"""Samples of the Privacy pillar, from the benchmark files or the starter items."""

from __future__ import annotations

from inspect_ai.dataset import MemoryDataset, Sample

from trustmh.data.loaders.confaide import RatingItem, load_tier
from trustmh.data.loaders.psyleak import LeakScenario, load_psyleak
from trustmh.data.starter import load_starter
from trustmh.pillars.privacy.prompts import (
    QUESTION_TYPES,
    leak_prompt,
    leak_question,
    rating_prompt,
    strip_trailing_question,
)

STARTER = "trustmh.pillars.privacy.starter"


def rating_items(tier: str, source: str, data_dir: str | None) -> list[RatingItem]:
    if source == "benchmark":
        return load_tier(tier, data_dir)
    return [
        RatingItem(r["id"], tier, r["prompt"], float(r["label"]))
        for r in load_starter(STARTER, f"confaide_tier{tier}.jsonl")
    ]


def rating_dataset(tier: str, source: str, data_dir: str | None) -> MemoryDataset:
    samples = [
        Sample(id=item.id, input=rating_prompt(item.prompt), target=str(item.label), metadata={"tier": tier})
        for item in rating_items(tier, source, data_dir)
    ]
    return MemoryDataset(samples, name=f"confaide_tier{tier}")


def leak_scenarios(source: str, data_dir: str | None) -> list[LeakScenario]:
    if source == "benchmark":
        return load_psyleak(data_dir)
    return [
        LeakScenario(
            r["index"],
            r["header"],
            r["story"],
            r["about"],
            r["questionee"],
            r["questioner"],
            r["topic"],
            r["control_question"],
        )
        for r in load_starter(STARTER, "psyleak.jsonl")
    ]


def psyleak_dataset(
    source: str, data_dir: str | None, question_types: tuple[str, ...] = QUESTION_TYPES
) -> MemoryDataset:
    """Four samples per scenario, ids ``<scenario index>-<question type>``."""
    samples: list[Sample] = []
    for scenario in leak_scenarios(source, data_dir):
        story = strip_trailing_question(scenario.story, scenario.questionee)
        for kind in question_types:
            question = leak_question(
                kind, scenario.about, scenario.questionee, scenario.topic, scenario.control_question
            )
            samples.append(
                Sample(
                    id=f"{scenario.index}-{kind}",
                    input=leak_prompt(story, question),
                    metadata={
                        "question_type": kind,
                        "about": scenario.about,
                        "questionee": scenario.questionee,
                        "questioner": scenario.questioner,
                        "topic": scenario.topic,
                        "scenario": scenario.index,
                    },
                )
            )
    return MemoryDataset(samples, name="psyleak")
