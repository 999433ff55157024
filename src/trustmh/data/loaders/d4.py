"""D4 (Yao et al., EMNLP 2022): Chinese depression-diagnosis dialogues between a doctor and
a patient, with the psychiatrist's severity ratings.

Access-controlled: request it from the authors (x-lance.github.io/D4), then
``trustmh data import DIR`` with a folder holding ``d4/``. Accepted format: the raw release
splits ``raw_data_train.json``, ``raw_data_val.json``, ``raw_data_test.json``, each a JSON
list of sessions::

    {"log": [{"speaker": "patient" | "doctor", "text": "...", "action": "...", "topic": [...]}, ...],
     "portrait": {"age": "18", "gender": "男", "symptoms": "决断困难；睡眠", ...},
     "record": {"drisk": 2, "srisk": 0, "summary": "..."}}

Required: ``log`` (``dialog`` is accepted as an alias) with ``speaker`` and ``text`` per
turn, and ``record.drisk`` / ``record.srisk`` (non-negative integers, or digit strings):
depression and suicide-risk severity rated by the psychiatrist. As in the D4 baselines,
ratings above 3 are clipped to 3, giving four classes 0 (none), 1 (mild), 2 (moderate),
3 (severe); the 2-class task is "any (>= 1)" vs "none (0)". ``portrait`` (the patient's
profile, incl. its ``symptoms``) and ``record.summary`` are kept as metadata.
Session ids are ``<split>-<0-based index>``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trustmh.core.errors import DataFormatError, UserError
from trustmh.data.readers import read_json
from trustmh.data.registry import resolve_file

DATASET = "d4"
SPLITS = ("train", "val", "test")
SPEAKERS = ("doctor", "patient")
MAX_LEVEL = 3


@dataclass(frozen=True)
class D4Turn:
    speaker: str  # "doctor" or "patient"
    text: str


@dataclass(frozen=True)
class D4Session:
    id: str
    turns: tuple[D4Turn, ...]
    drisk: int  # 0-3 after clipping
    srisk: int  # 0-3 after clipping
    summary: str = ""
    portrait: dict[str, Any] = field(default_factory=dict, compare=False)


def file_name(split: str) -> str:
    return f"raw_data_{split}.json"


def _level(record: dict[str, Any], key: str, path: Path, where: str) -> int:
    value = record.get(key)
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise DataFormatError(path, f"{where}, field 'record.{key}'", "expected a non-negative integer severity")
    return min(MAX_LEVEL, value)


def _turn(value: object, path: Path, where: str) -> D4Turn | None:
    if not isinstance(value, dict):
        raise DataFormatError(path, where, "expected a turn object {speaker, text}")
    speaker = str(value.get("speaker", "")).strip().lower()
    if speaker not in SPEAKERS:
        raise DataFormatError(
            path, f"{where}, field 'speaker'", f'expected "doctor" or "patient", found {value.get("speaker")!r}'
        )
    text = value.get("text")
    if not isinstance(text, str):
        raise DataFormatError(path, f"{where}, field 'text'", "expected the turn's text")
    return D4Turn(speaker, text.strip()) if text.strip() else None


def parse_d4(path: Path, split: str = "test") -> list[D4Session]:
    data = read_json(path)
    if not isinstance(data, list) or not data:
        raise DataFormatError(path, None, "expected a JSON list of sessions {log, portrait, record}")
    sessions: list[D4Session] = []
    for index, session in enumerate(data):
        where = f"session {index}"
        if not isinstance(session, dict):
            raise DataFormatError(path, where, "expected a session object {log, portrait, record}")
        log = session.get("log", session.get("dialog"))
        if not isinstance(log, list) or not log:
            raise DataFormatError(path, f"{where}, field 'log'", "expected a non-empty list of turns")
        turns = tuple(t for n, turn in enumerate(log) if (t := _turn(turn, path, f"{where}, turn {n}")) is not None)
        record = session.get("record")
        if not isinstance(record, dict):
            raise DataFormatError(
                path, f"{where}, field 'record'", "expected the psychiatrist's record {drisk, srisk, summary}"
            )
        portrait = session.get("portrait")
        sessions.append(
            D4Session(
                id=f"{split}-{index}",
                turns=turns,
                drisk=_level(record, "drisk", path, where),
                srisk=_level(record, "srisk", path, where),
                summary=str(record.get("summary") or ""),
                portrait=portrait if isinstance(portrait, dict) else {},
            )
        )
    return sessions


def load_d4(data_dir: str | Path | None = None, split: str = "test") -> list[D4Session]:
    if split not in SPLITS:
        raise UserError(f"D4 split must be one of {', '.join(SPLITS)}, not {split!r}")
    return parse_d4(resolve_file(DATASET, file_name(split), data_dir), split)


def count_rows(data_dir: str | Path | None) -> int:
    """Sessions of the test split (the one the task evaluates)."""
    return len(load_d4(data_dir, "test"))
