"""Samples of the Crisis pillar, from the benchmark files or the starter items.

Every sample carries ``perturb_span`` in its metadata: the part of the prompt written by
the user (their messages or posts), which the robustness pillar may perturb; the
instructions and label list around it stay intact.
"""

from __future__ import annotations

from collections.abc import Iterator

from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser

from trustmh.data.loaders.cssrs import CssrsUser, load_cssrs
from trustmh.data.loaders.llms_mh_crisis import (
    CRISIS_LABELS,
    CrisisItem,
    ProtocolEntry,
    load_crisis_items,
    load_protocol,
)
from trustmh.data.starter import load_starter
from trustmh.pillars.crisis.prompts import (
    ESCALATION_SYSTEM,
    STARTER_LEVELS,
    classification_prompt,
    cssrs_prompt,
    truncate_posts,
    user_messages_text,
)

STARTER = "trustmh.pillars.crisis.starter"


def crisis_items(
    source: str, data_dir: str | None, labels: str = "human", starter_file: str = "classification.jsonl"
) -> list[CrisisItem]:
    if source == "benchmark":
        return load_crisis_items(labels, data_dir)
    return [CrisisItem(r["id"], tuple(r["inputs"]), r["label"]) for r in load_starter(STARTER, starter_file)]


def labelled_items(
    source: str, data_dir: str | None, labels: str, starter_file: str = "classification.jsonl"
) -> Iterator[tuple[CrisisItem, str, str]]:
    """``(item, gold label, the user's messages as text)`` of every item with a gold class.

    Items whose merged label is ``null`` (no annotator majority) have no gold class: skipped.
    """
    for item in crisis_items(source, data_dir, labels, starter_file):
        if item.label is not None:
            yield item, item.label, user_messages_text(item.inputs)


def classification_dataset(source: str, data_dir: str | None, labels: str = "human") -> MemoryDataset:
    """One sample per item with a gold class (see :func:`labelled_items`)."""
    samples = [
        Sample(
            id=item.id,
            input=classification_prompt(messages),
            target=label,
            metadata={"category": label, "perturb_span": messages, "origin": item.origin},
        )
        for item, label, messages in labelled_items(source, data_dir, labels)
    ]
    return MemoryDataset(samples, name=f"crisis_classification_{labels if source == 'benchmark' else 'starter'}")


def cssrs_users(source: str, data_dir: str | None) -> list[CssrsUser]:
    if source == "benchmark":
        return load_cssrs(data_dir)
    return [CssrsUser(r["id"], tuple(r["posts"]), r["label"]) for r in load_starter(STARTER, "cssrs.jsonl")]


# The starter suite fits the embedded model's context and stays quick: each post cut to 800 characters and
# at most 6,000 in all. Benchmark runs keep every post whole (0 = no limit), so no user's
# later posts are silently dropped; the omitted share is in each sample's metadata.
STARTER_POST_LIMITS = (800, 6000)


def cssrs_limits(source: str, max_post_chars: int | None, max_chars: int | None) -> tuple[int, int]:
    """``(max_post_chars, max_chars)``: the given values, else the source's default (0 = no limit)."""
    default_post, default_total = STARTER_POST_LIMITS if source == "starter" else (0, 0)
    return (
        default_post if max_post_chars is None else max_post_chars,
        default_total if max_chars is None else max_chars,
    )


def cssrs_dataset(
    source: str, data_dir: str | None, max_post_chars: int | None = None, max_chars: int | None = None
) -> MemoryDataset:
    post_limit, total_limit = cssrs_limits(source, max_post_chars, max_chars)
    samples = []
    for user in cssrs_users(source, data_dir):
        posts_text, omitted = truncate_posts(user.posts, post_limit, total_limit)
        samples.append(
            Sample(
                id=user.id,
                input=cssrs_prompt(posts_text),
                target=user.label,
                metadata={
                    "level": user.label,
                    "perturb_span": posts_text,
                    "posts": len(user.posts),
                    "posts_omitted": omitted,
                    "source_truncated": user.truncated,
                },
            )
        )
    return MemoryDataset(samples, name="cssrs" if source == "benchmark" else "cssrs_starter")


def escalation_rubrics(source: str, data_dir: str | None) -> dict[str, tuple[str, ...]]:
    """Per-class level descriptions: protocol.csv for benchmark data, our short rubric otherwise."""
    if source == "benchmark":
        protocol: dict[str, ProtocolEntry] = load_protocol(data_dir)
        return {label: entry.levels for label, entry in protocol.items()}
    return {label: STARTER_LEVELS for label in CRISIS_LABELS}


def escalation_dataset(source: str, data_dir: str | None, labels: str = "human") -> MemoryDataset:
    rubrics = escalation_rubrics(source, data_dir)
    samples = [
        Sample(
            id=item.id,
            input=[ChatMessageSystem(content=ESCALATION_SYSTEM), ChatMessageUser(content=messages)],
            target=label,
            metadata={"category": label, "rubric_levels": list(rubrics[label]), "perturb_span": messages},
        )
        for item, label, messages in labelled_items(source, data_dir, labels, starter_file="escalation.jsonl")
    ]
    return MemoryDataset(samples, name=f"crisis_escalation_{labels if source == 'benchmark' else 'starter'}")
