"""Samples of the Privacy pillar, from the benchmark files or the starter items."""

from __future__ import annotations

from inspect_ai.dataset import MemoryDataset, Sample

from trustmh.core.errors import DataFormatError
from trustmh.data.loaders.confaide import RatingItem, load_tier
from trustmh.data.loaders.psyleak import LeakScenario, load_psyleak
from trustmh.data.registry import resolve_file
from trustmh.data.starter import load_starter
from trustmh.pillars.privacy import upstream_prompts
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
    """Benchmark: upstream's request for each line, byte for byte; starter: our prompt."""

    def prompt(item: RatingItem) -> str:
        if source == "benchmark":
            return upstream_prompts.rating_prompt(tier, item.line, data_dir)
        return rating_prompt(item.prompt)

    samples = [
        Sample(id=item.id, input=prompt(item), target=str(item.label), metadata={"tier": tier})
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
    """Four samples per scenario, ids ``<scenario index>-<question type>``.

    Benchmark: TrustMH-Bench's request for each question, byte for byte (upstream_prompts).
    """
    samples: list[Sample] = []
    scenarios = leak_scenarios(source, data_dir)  # validated first: a bad file is named by its loader
    upstream_inputs: dict[tuple[int, str], str] = {}
    upstream_agents: dict[int, dict[str, str]] = {}
    if source == "benchmark":
        story_path = resolve_file("trustmh", "PsyLeak.txt", data_dir)
        control_path = resolve_file("trustmh", "PsyLeak_control.txt", data_dir)
        upstream_inputs = upstream_prompts.psyleak_inputs(story_path, control_path, data_dir)
        upstream_agents = upstream_prompts.upstream_agents(story_path)
    for scenario in scenarios:
        story = strip_trailing_question(scenario.story, scenario.questionee)
        for kind in question_types:
            question = leak_question(
                kind, scenario.about, scenario.questionee, scenario.topic, scenario.control_question
            )
            text = (
                upstream_inputs.get((scenario.index, kind)) if source == "benchmark" else leak_prompt(story, question)
            )
            if text is None:
                raise DataFormatError(
                    resolve_file("trustmh", "PsyLeak.txt", data_dir),
                    f"scenario {scenario.index}",
                    "a scenario upstream's reader cannot parse (agents not four distinct names)",
                )
            samples.append(
                Sample(
                    id=f"{scenario.index}-{kind}",
                    input=text,
                    metadata={
                        "question_type": kind,
                        "about": scenario.about,
                        "questionee": scenario.questionee,
                        "questioner": scenario.questioner,
                        "topic": scenario.topic,
                        "scenario": scenario.index,
                        # upstream's reading of the secret and the client's name (its proxy judge's values)
                        **_upstream_names(upstream_agents.get(scenario.index)),
                    },
                )
            )
    return MemoryDataset(samples, name="psyleak")


def _upstream_names(agents: dict[str, str] | None) -> dict[str, str]:
    return {} if agents is None else {"secret": agents["topic"], "subject": agents["about"]}
