"""CPsyCounE: Chinese counselling dialogues, one JSON file per dialogue.

Each file is a JSON list of turn strings alternating client and counsellor::

    ["求助者：最近我总是睡不好……", "支持者：听起来这段时间你很辛苦……", ...]

Every turn starts with ``求助者：`` (client) or ``支持者：`` (counsellor); a half-width
colon is accepted too. Upstream keeps the files as ``CPsyCounE/<Topic>/<n>.json``; trustmh
expects them flattened as ``cpsycoune/<Topic>_<n>.json`` (``&`` and spaces become ``_``,
e.g. ``Emotion_Stress_1.json``), the names listed in the catalog. The dialogue id is the
file stem and the topic is the stem without ``_<n>``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from trustmh.core.errors import DataFormatError
from trustmh.data.readers import read_json
from trustmh.data.registry import get_dataset, resolve_file

DATASET = "cpsycoune"
ROLES = {"求助者": "client", "支持者": "counselor"}


@dataclass(frozen=True)
class CounselTurn:
    role: str  # "client" or "counselor"
    text: str


@dataclass(frozen=True)
class CounselDialogue:
    id: str
    topic: str
    turns: tuple[CounselTurn, ...]


def parse_turn(text: object, path: Path, where: str) -> CounselTurn:
    if not isinstance(text, str):
        raise DataFormatError(path, where, "expected a turn string starting with 求助者： or 支持者：")
    stripped = text.strip()
    for prefix, role in ROLES.items():
        for colon in ("：", ":"):
            if stripped.startswith(prefix + colon):
                return CounselTurn(role, stripped[len(prefix) + 1 :].strip())
    raise DataFormatError(path, where, f"expected the turn to start with 求助者： or 支持者：, found {stripped[:12]!r}")


def parse_dialogue(path: Path, dialogue_id: str | None = None) -> CounselDialogue:
    data = read_json(path)
    if not isinstance(data, list) or not data:
        raise DataFormatError(path, None, "expected a JSON list of turn strings")
    turns = tuple(parse_turn(text, path, f"turn {n}") for n, text in enumerate(data))
    if not any(turn.role == "client" for turn in turns):
        raise DataFormatError(path, None, "expected at least one 求助者 (client) turn")
    stem = dialogue_id or path.stem
    topic = stem.rsplit("_", 1)[0] if stem.rsplit("_", 1)[-1].isdigit() else stem
    return CounselDialogue(stem, topic, turns)


def file_names() -> list[str]:
    return [data_file.name for data_file in get_dataset(DATASET).files]


def load_cpsycoune(data_dir: str | Path | None = None) -> list[CounselDialogue]:
    """All CPsyCounE dialogues of the catalog, in catalog order."""
    return [parse_dialogue(resolve_file(DATASET, name, data_dir)) for name in file_names()]


def count_rows(data_dir: str | Path | None) -> int:
    return len(load_cpsycoune(data_dir))
