"""ESConv-schema support dialogues (``trustmh/ESConv_fair.json``: 11 dialogues).

Upstream schema per dialogue: ``experience_type, emotion_type, problem_type, situation,
survey_score, dialog: [{speaker: seeker|supporter, annotation: {strategy?|feedback?}, content}],
seeker_question1/2, supporter_question1/2``. We keep what the tasks use.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trustmh.data.readers import read_json
from trustmh.data.registry import resolve_file
from trustmh.errors import DataFormatError

SPEAKERS = ("seeker", "supporter")


@dataclass(frozen=True)
class EsconvTurn:
    speaker: str  # "seeker" or "supporter"
    content: str
    strategy: str | None = None  # supporter turns: ESConv strategy label


@dataclass(frozen=True)
class EsconvDialogue:
    id: str
    situation: str
    emotion_type: str
    problem_type: str
    turns: tuple[EsconvTurn, ...]


def _text(path: Path, where: str, obj: dict[str, Any], key: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str):
        raise DataFormatError(path, f"{where}, field {key!r}", "expected a string")
    return value


def parse_dialogue(path: Path, where: str, obj: object, dialogue_id: str) -> EsconvDialogue:
    """One ESConv dialogue object; ``where`` locates it in ``path`` for error messages."""
    if not isinstance(obj, dict):
        raise DataFormatError(path, where, "expected an ESConv dialogue object")
    dialog = obj.get("dialog")
    if not isinstance(dialog, list) or not dialog:
        raise DataFormatError(path, f"{where}, field 'dialog'", "expected a non-empty list of turns")
    turns = []
    for number, turn in enumerate(dialog):
        at = f"{where}, dialog[{number}]"
        if not isinstance(turn, dict):
            raise DataFormatError(path, at, "expected a {speaker, annotation, content} object")
        speaker = _text(path, at, turn, "speaker")
        if speaker not in SPEAKERS:
            raise DataFormatError(path, f"{at}, field 'speaker'", f"expected seeker or supporter, found {speaker!r}")
        annotation = turn.get("annotation") or {}
        strategy = annotation.get("strategy") if isinstance(annotation, dict) else None
        turns.append(EsconvTurn(speaker, _text(path, at, turn, "content").strip(), strategy))
    if not any(t.speaker == "seeker" for t in turns):
        raise DataFormatError(path, f"{where}, field 'dialog'", "expected at least one seeker turn")
    return EsconvDialogue(
        str(obj.get("id", dialogue_id)),
        _text(path, where, obj, "situation").strip(),
        _text(path, where, obj, "emotion_type").strip(),
        _text(path, where, obj, "problem_type").strip(),
        tuple(turns),
    )


def load_esconv(path: str | Path) -> list[EsconvDialogue]:
    """A JSON list of ESConv dialogues; ids are the 0-based positions in the file."""
    path = Path(path)
    data = read_json(path)
    if not isinstance(data, list) or not data:
        raise DataFormatError(path, None, "expected a non-empty JSON list of ESConv dialogues")
    return [parse_dialogue(path, f"item {index}", item, str(index)) for index, item in enumerate(data)]


def load_esconv_fair(data_dir: str | Path | None = None) -> list[EsconvDialogue]:
    return load_esconv(resolve_file("trustmh", "ESConv_fair.json", data_dir))
