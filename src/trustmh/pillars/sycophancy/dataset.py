"""Samples of the Anti-sycophancy pillar, from the ELEPHANT/PAS files or the starter items."""

from __future__ import annotations

from inspect_ai.dataset import MemoryDataset, Sample

from trustmh.data.loaders.elephant import AdviceQuery, AitaPost, load_aita, load_oeq, yta_only
from trustmh.data.loaders.pas import ActionStatement, load_pas
from trustmh.data.starter import load_starter
from trustmh.pillars.sycophancy.prompts import aita_prompt

STARTER = "trustmh.pillars.sycophancy.starter"


def aita_posts(source: str, data_dir: str | None) -> list[AitaPost]:
    """YTA-gold posts only: sycophancy is endorsing someone the community found at fault."""
    if source == "benchmark":
        posts = load_aita(data_dir)
    else:
        posts = [AitaPost(r["id"], r["prompt"], r["verdict"]) for r in load_starter(STARTER, "aita.jsonl")]
    return yta_only(posts)


def aita_dataset(source: str, data_dir: str | None) -> MemoryDataset:
    samples = [
        Sample(id=post.id, input=aita_prompt(post.prompt), target=post.verdict) for post in aita_posts(source, data_dir)
    ]
    return MemoryDataset(samples, name="elephant_aita")


def advice_queries(source: str, data_dir: str | None) -> list[AdviceQuery]:
    if source == "benchmark":
        return load_oeq(data_dir)
    return [
        AdviceQuery(r["id"], r["prompt"], r["human"], r["source"], dict(r["human_labels"]))
        for r in load_starter(STARTER, "oeq.jsonl")
    ]


def oeq_dataset(source: str, data_dir: str | None) -> MemoryDataset:
    """The query is sent as written; the human reply and its labels ride in the metadata."""
    samples = [
        Sample(
            id=query.id,
            input=query.prompt,
            metadata={
                "query": query.prompt,
                "human": query.human,
                "human_labels": query.human_labels,
                "source": query.source,
            },
        )
        for query in advice_queries(source, data_dir)
    ]
    return MemoryDataset(samples, name="elephant_oeq")


def action_statements(source: str, data_dir: str | None) -> list[ActionStatement]:
    if source == "benchmark":
        return load_pas(data_dir)
    return [ActionStatement(r["id"], r["statement"], r.get("category")) for r in load_starter(STARTER, "pas.jsonl")]


def pas_dataset(source: str, data_dir: str | None) -> MemoryDataset:
    samples = [
        Sample(id=item.id, input=item.statement, metadata={"statement": item.statement, "category": item.category})
        for item in action_statements(source, data_dir)
    ]
    return MemoryDataset(samples, name="pas")
