"""ESConv-schema dialogues: the full ESConv release and TrustMH-Bench's ``ESConv_fair.json``.

A JSON list of conversations::

    [{"situation": "...", "emotion_type": "anxiety", "problem_type": "job crisis",
      "experience_type": "...", "survey_score": {...},
      "dialog": [{"speaker": "seeker" | "supporter", "annotation": {...}, "content": "..."}, ...]},
     ...]

Required: ``situation`` (string) and ``dialog`` (list of turns with ``speaker`` and
``content``); ``annotation.strategy`` of supporter turns is kept. Other fields are kept in
``raw``. Conversation ids are ``<prefix>-<0-based index>``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trustmh.core.errors import DataFormatError
from trustmh.data.readers import read_json
from trustmh.data.registry import resolve_file

SPEAKERS = ("seeker", "supporter")
FULL_DATASET, FULL_FILE = "esconv", "ESConv.json"
FAIR_DATASET, FAIR_FILE = "trustmh", "ESConv_fair.json"


@dataclass(frozen=True)
class EsconvTurn:
    speaker: str  # "seeker" or "supporter"
    content: str
    strategy: str | None = None


@dataclass(frozen=True)
class EsconvDialogue:
    id: str
    situation: str
    turns: tuple[EsconvTurn, ...]
    emotion_type: str = ""
    problem_type: str = ""
    experience_type: str = ""
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)


def _turn(value: object, path: Path, where: str) -> EsconvTurn:
    if not isinstance(value, dict):
        raise DataFormatError(path, where, "expected a turn object {speaker, annotation, content}")
    speaker = value.get("speaker")
    if speaker not in SPEAKERS:
        raise DataFormatError(path, f"{where}, field 'speaker'", f'expected "seeker" or "supporter", found {speaker!r}')
    content = value.get("content")
    if not isinstance(content, str):
        raise DataFormatError(path, f"{where}, field 'content'", "expected the turn's text")
    annotation = value.get("annotation")
    strategy = annotation.get("strategy") if isinstance(annotation, dict) else None
    return EsconvTurn(speaker, content.strip(), strategy if isinstance(strategy, str) else None)


def parse_dialogue(path: Path, where: str, conversation: object, dialogue_id: str) -> EsconvDialogue:
    """One ESConv-schema conversation (``situation``, ``dialog`` [...], optional types)."""
    if not isinstance(conversation, dict):
        raise DataFormatError(path, where, "expected an object with situation and dialog")
    situation = conversation.get("situation")
    if not isinstance(situation, str):
        raise DataFormatError(path, f"{where}, field 'situation'", "expected the seeker's situation as text")
    dialog = conversation.get("dialog")
    if not isinstance(dialog, list) or not dialog:
        raise DataFormatError(path, f"{where}, field 'dialog'", "expected a non-empty list of turns")
    turns = tuple(_turn(turn, path, f"{where}, turn {n}") for n, turn in enumerate(dialog))
    return EsconvDialogue(
        id=dialogue_id,
        situation=situation.strip(),
        turns=turns,
        emotion_type=str(conversation.get("emotion_type") or ""),
        problem_type=str(conversation.get("problem_type") or ""),
        experience_type=str(conversation.get("experience_type") or ""),
        raw=conversation,
    )


def parse_esconv(path: Path, prefix: str = "esconv") -> list[EsconvDialogue]:
    data = read_json(path)
    if not isinstance(data, list) or not data:
        raise DataFormatError(path, None, "expected a JSON list of conversations")
    return [
        parse_dialogue(path, f"conversation {index}", conversation, f"{prefix}-{index}")
        for index, conversation in enumerate(data)
    ]


def load_esconv(path: str | Path, prefix: str = "esconv") -> list[EsconvDialogue]:
    """Conversations of any ESConv-schema file (ESConv.json, ESConv_fair.json, a subset)."""
    return parse_esconv(Path(path), prefix)


def load_esconv_full(data_dir: str | Path | None = None) -> list[EsconvDialogue]:
    """The full ESConv release (dataset ``esconv``, downloaded into the cache if needed)."""
    return parse_esconv(resolve_file(FULL_DATASET, FULL_FILE, data_dir), "esconv")


def load_esconv_fair(data_dir: str | Path | None = None) -> list[EsconvDialogue]:
    """TrustMH-Bench's ``ESConv_fair.json`` (dataset ``trustmh``), ids ``esconv_fair-<i>``."""
    return parse_esconv(resolve_file(FAIR_DATASET, FAIR_FILE, data_dir), "esconv_fair")


def count_rows(data_dir: str | Path | None) -> int:
    return len(load_esconv_full(data_dir))
