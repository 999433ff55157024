"""Samples of the Fairness pillar: every dialogue once per demographic variant of the seeker."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageSystem, ChatMessageUser

from trustmh.core.errors import UserError
from trustmh.data.loaders.esconv import EsconvDialogue, EsconvTurn, load_esconv_fair, parse_dialogue
from trustmh.data.starter import load_starter
from trustmh.pillars.fairness.demographics import ATTRIBUTES, IDENTITY_TURNS, Variant, inject, variants
from trustmh.pillars.fairness.prompts import SUPPORTER_SYSTEM

STARTER = "trustmh.pillars.fairness.starter"
STARTER_FILE = "esconv_fair.jsonl"


def starter_dialogues() -> list[EsconvDialogue]:
    """Our dialogues, parsed by the same ESConv parser as the benchmark file."""
    path = resources.files(STARTER).joinpath(STARTER_FILE)
    return [
        parse_dialogue(Path(str(path)), f"line {n}", record, record["id"])
        for n, record in enumerate(load_starter(STARTER, STARTER_FILE), start=1)
    ]


def dialogues(source: str, data_dir: str | None) -> list[EsconvDialogue]:
    return load_esconv_fair(data_dir) if source == "benchmark" else starter_dialogues()


def up_to_last_seeker_turn(turns: tuple[EsconvTurn, ...]) -> tuple[EsconvTurn, ...]:
    """The model answers the last seeker turn: later supporter turns are dropped."""
    last = max(i for i, turn in enumerate(turns) if turn.speaker == "seeker")
    return turns[: last + 1]


def chat_messages(turns: tuple[EsconvTurn, ...]) -> list[ChatMessage]:
    """Seeker turns as user messages, supporter turns as assistant messages; consecutive
    turns of one speaker are joined (ESConv often splits one message over several turns)."""
    merged: list[tuple[str, list[str]]] = []
    for turn in turns:
        if merged and merged[-1][0] == turn.speaker:
            merged[-1][1].append(turn.content)
        else:
            merged.append((turn.speaker, [turn.content]))
    messages: list[ChatMessage] = [ChatMessageSystem(content=SUPPORTER_SYSTEM)]
    for speaker, parts in merged:
        text = "\n".join(parts)
        messages.append(ChatMessageUser(content=text) if speaker == "seeker" else ChatMessageAssistant(content=text))
    return messages


def transcript(turns: tuple[EsconvTurn, ...]) -> str:
    return "\n".join(f"{'Seeker' if t.speaker == 'seeker' else 'Supporter'}: {t.content}" for t in turns)


def parse_attributes(attributes: str) -> tuple[str, ...]:
    names = tuple(a.strip() for a in attributes.split(",") if a.strip()) if attributes != "all" else ATTRIBUTES
    unknown = [a for a in names if a not in ATTRIBUTES]
    if unknown or not names:
        raise UserError(
            f"unknown attribute {unknown[0] if unknown else attributes!r}; choose from {', '.join(ATTRIBUTES)} or 'all'"
        )
    return names


def parse_identity_turn(identity_turn: str) -> str:
    if identity_turn not in IDENTITY_TURNS:
        raise UserError(f"identity_turn must be one of {', '.join(IDENTITY_TURNS)}, not {identity_turn!r}")
    return identity_turn


def variant_sample(dialogue: EsconvDialogue, variant: Variant, identity_turn: str = "last") -> Sample:
    turns = up_to_last_seeker_turn(inject(dialogue, variant, identity_turn).turns)
    return Sample(
        id=f"{dialogue.id}-{variant.attribute}-{variant.group}",
        input=chat_messages(turns),
        metadata={
            "dialogue_id": dialogue.id,
            "attribute": variant.attribute,
            "group": variant.group,
            "variant": variant.key,
            "transcript": transcript(turns),
        },
    )


def esconv_fair_dataset(
    source: str, data_dir: str | None, attributes: tuple[str, ...] = ATTRIBUTES, identity_turn: str = "last"
) -> MemoryDataset:
    """Every dialogue once per variant, a dialogue's variants next to each other."""
    samples = [variant_sample(d, v, identity_turn) for d in dialogues(source, data_dir) for v in variants(attributes)]
    return MemoryDataset(samples, name="esconv_fair")
