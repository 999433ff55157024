"""EmoBench emotional understanding (``EU.jsonl``): one JSON object per line.

Fields used: ``qid``, ``language`` (``en``/``zh``), ``scenario``, ``subject``,
``emotion_choices`` (list of strings), ``emotion_label`` (one of them), ``cause_choices``,
``cause_label``; ``coarse_category`` and ``finegrained_category`` are kept as metadata.
Choices keep the released order (EmoBench letters them A, B, ... in that order).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trustmh.core.errors import DataFormatError, UserError
from trustmh.data.readers import read_jsonl, require_unique
from trustmh.data.registry import resolve_file

DATASET = "emobench"
FILE = "EU.jsonl"
LANGUAGES = ("en", "zh")
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
REQUIRED = (
    "qid",
    "language",
    "scenario",
    "subject",
    "emotion_choices",
    "emotion_label",
    "cause_choices",
    "cause_label",
)


@dataclass(frozen=True)
class EuItem:
    """One EU item: a scenario with an emotion question and a cause question."""

    qid: str
    language: str
    scenario: str
    subject: str
    emotion_choices: tuple[str, ...]
    emotion_label: str
    cause_choices: tuple[str, ...]
    cause_label: str
    coarse_category: str = ""
    finegrained_category: str = ""

    @property
    def id(self) -> str:
        return f"{self.language}-{self.qid}"

    @property
    def emotion_answer(self) -> str:
        return LETTERS[self.emotion_choices.index(self.emotion_label)]

    @property
    def cause_answer(self) -> str:
        return LETTERS[self.cause_choices.index(self.cause_label)]


def _text(record: dict[str, Any], key: str, path: Path, where: str) -> str:
    value = record[key]
    if isinstance(value, int) and not isinstance(value, bool) and key == "qid":
        return str(value)
    if not isinstance(value, str) or not value.strip():
        raise DataFormatError(path, f"{where}, field {key!r}", "expected non-empty text")
    return value.strip()


def _choices(record: dict[str, Any], key: str, label_key: str, path: Path, where: str) -> tuple[tuple[str, ...], str]:
    choices = record[key]
    if (
        not isinstance(choices, list)
        or not 2 <= len(choices) <= len(LETTERS)
        or not all(isinstance(c, str) and c.strip() for c in choices)
    ):
        raise DataFormatError(path, f"{where}, field {key!r}", "expected a list of 2 or more choice texts")
    if len(set(choices)) != len(choices):
        raise DataFormatError(path, f"{where}, field {key!r}", "expected distinct choices")
    label = record[label_key]
    if label not in choices:
        raise DataFormatError(
            path, f"{where}, field {label_key!r}", f"expected one of the {key} (found {str(label)[:60]!r})"
        )
    return tuple(choices), label


def parse_eu(path: Path) -> list[EuItem]:
    items: list[EuItem] = []
    for record in read_jsonl(path, required=REQUIRED):
        where = f"line {record['_line']}"
        emotion_choices, emotion_label = _choices(record, "emotion_choices", "emotion_label", path, where)
        cause_choices, cause_label = _choices(record, "cause_choices", "cause_label", path, where)
        items.append(
            EuItem(
                qid=_text(record, "qid", path, where),
                language=_text(record, "language", path, where).lower(),
                scenario=_text(record, "scenario", path, where),
                subject=_text(record, "subject", path, where),
                emotion_choices=emotion_choices,
                emotion_label=emotion_label,
                cause_choices=cause_choices,
                cause_label=cause_label,
                coarse_category=str(record.get("coarse_category") or ""),
                finegrained_category=str(record.get("finegrained_category") or ""),
            )
        )
    require_unique(path, ((item.id, f"item {n + 1}") for n, item in enumerate(items)))
    return items


def filter_language(items: list[EuItem], language: str) -> list[EuItem]:
    """Items of ``language`` (``en``, ``zh``) or all of them (``all``)."""
    if language not in (*LANGUAGES, "all"):
        raise UserError(f"language must be one of en, zh, all, not {language!r}")
    return items if language == "all" else [item for item in items if item.language == language]


def parse_eu_from(data_dir: str | Path | None = None) -> list[EuItem]:
    """All items of ``emobench/EU.jsonl`` found through ``data_dir`` (or the cache)."""
    return parse_eu(resolve_file(DATASET, FILE, data_dir))


def load_eu(data_dir: str | Path | None = None, language: str = "all") -> list[EuItem]:
    return filter_language(parse_eu_from(data_dir), language)


def count_rows(data_dir: str | Path | None) -> int:
    return len(load_eu(data_dir))
