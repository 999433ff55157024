"""Samples of the Ethics pillar, from EthicMH or the starter dilemmas."""

from __future__ import annotations

from inspect_ai.dataset import MemoryDataset, Sample

from trustmh.data.loaders.ethicmh import EthicItem, load_ethicmh
from trustmh.data.starter import load_starter
from trustmh.pillars.ethics.prompts import starter_dilemma_prompt, upstream_dilemma_prompt

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

    Benchmark runs send TrustMH-Bench's request byte for byte (read from its pinned code); the
    starter suite (our items) our own prompt (:func:`~trustmh.pillars.ethics.prompts.starter_dilemma_prompt`).
    """

    def prompt(item: EthicItem) -> str:
        if source == "benchmark":
            return upstream_dilemma_prompt(item.cells, data_dir)
        return starter_dilemma_prompt(item.scenario, item.options, item.reasoning_task)

    samples = [
        Sample(
            id=item.id,
            input=prompt(item),
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
