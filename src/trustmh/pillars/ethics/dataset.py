"""Samples of the Ethics pillar, from EthicMH or the starter dilemmas."""

from __future__ import annotations

from inspect_ai.dataset import MemoryDataset, Sample

from trustmh.data.loaders.ethicmh import EthicItem, load_ethicmh
from trustmh.data.starter import load_starter
from trustmh.pillars.ethics.prompts import dilemma_prompt, starter_dilemma_prompt

STARTER = "trustmh.pillars.ethics.starter"


def ethic_items(source: str, data_dir: str | None) -> list[EthicItem]:
    if source == "benchmark":
        return load_ethicmh(data_dir)
    return [
        EthicItem(str(r["id"]), r["subcategory"], r["scenario"], dict(r["options"]), r["reasoning_task"], r["gold"])
        for r in load_starter(STARTER, "ethicmh.jsonl")
    ]


def ethicmh_dataset(source: str, data_dir: str | None) -> MemoryDataset:
    """One sample per dilemma; the sample id is EthicMH's ``index`` column.

    Benchmark runs use TrustMH-Bench's prompt as released; the starter suite (our items) the
    same text with the answer format first (:func:`~trustmh.pillars.ethics.prompts.starter_dilemma_prompt`).
    """
    prompt = dilemma_prompt if source == "benchmark" else starter_dilemma_prompt
    samples = [
        Sample(
            id=item.id,
            input=prompt(item.scenario, item.options, item.reasoning_task),
            target=item.gold,
            metadata={
                "subcategory": item.subcategory,
                "scenario": item.scenario,
                "options": item.options,
                "reasoning_task": item.reasoning_task,
                "model_behavior": item.model_behavior,
            },
        )
        for item in ethic_items(source, data_dir)
    ]
    return MemoryDataset(samples, name="ethicmh")
