"""Psy-Eval multiple-choice files: USMLE-Mental and Crisis Response QA.

One JSON object per line::

    {"question": "...", "options": {"A": "...", "B": "..."}, "answer": "B", ...}

``options`` is a JSON object, or in some releases that object *written as a string* (JSON or
a Python dict literal: ``"{'A': '...', 'B': '...'}"``); both are accepted. ``answer`` is the
letter of the correct option and may be space-padded (``" B "``). Option letters must run
A, B, C, ... without gaps. USMLE-Mental rows also carry ``meta_info1`` (``step1``/``step2``)
and ``meta_info2`` (topic list, e.g. ``["depression"]``), kept as metadata.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trustmh.core.errors import DataFormatError
from trustmh.data.readers import read_jsonl
from trustmh.data.registry import resolve_file

DATASET = "psyeval"
FILES = {"usmle": "USMLE-mental.jsonl", "crisis": "Crisis_Response_QA.jsonl"}
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class McqItem:
    """One multiple-choice question: options in letter order and the gold letter."""

    id: str
    question: str
    options: dict[str, str]
    answer: str
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def letters(self) -> str:
        return "".join(self.options)


def parse_options(value: object, path: Path, where: str) -> dict[str, str]:
    """``{"A": text, ...}`` from a dict or a dict written as a string; letters checked."""
    raw = value
    if isinstance(value, str):
        raw = None
        try:
            raw = json.loads(value)
        except json.JSONDecodeError:
            try:
                raw = ast.literal_eval(value.strip())
            except (ValueError, SyntaxError, MemoryError, RecursionError):
                pass
    if not isinstance(raw, dict) or not raw:
        raise DataFormatError(
            path,
            f"{where}, field 'options'",
            'expected an object of options {"A": text, "B": text, ...} (or that object written as a string)',
        )
    options: dict[str, str] = {}
    for key, text in raw.items():
        letter = str(key).strip().upper()
        if not isinstance(text, (str, int, float)) or isinstance(text, bool):
            raise DataFormatError(path, f"{where}, option {letter!r}", "expected the option's text")
        options[letter] = str(text).strip()
    letters = "".join(sorted(options))
    if len(options) < 2 or letters != LETTERS[: len(options)]:
        raise DataFormatError(
            path,
            f"{where}, field 'options'",
            f"expected options lettered A, B, C, ... without gaps, found {', '.join(sorted(options))}",
        )
    return {letter: options[letter] for letter in letters}


def parse_mcq_file(path: Path, prefix: str) -> list[McqItem]:
    """Items of one Psy-Eval file; ids are ``<prefix>-<0-based row>``."""
    items: list[McqItem] = []
    for index, record in enumerate(read_jsonl(path, required=("question", "options", "answer"))):
        where = f"line {record['_line']}"
        question = record["question"]
        if not isinstance(question, str) or not question.strip():
            raise DataFormatError(path, f"{where}, field 'question'", "expected the question text")
        options = parse_options(record["options"], path, where)
        answer = str(record["answer"]).strip().strip("().").upper() if isinstance(record["answer"], str) else None
        if answer not in options:
            raise DataFormatError(
                path,
                f"{where}, field 'answer'",
                f"expected one of the option letters {', '.join(options)}, found {record['answer']!r}",
            )
        metadata: dict[str, Any] = {}
        if isinstance(record.get("meta_info1"), str):
            metadata["step"] = record["meta_info1"]
        topics = record.get("meta_info2")
        if isinstance(topics, list):
            metadata["topics"] = [str(t) for t in topics]
        items.append(McqItem(f"{prefix}-{index}", question.strip(), options, answer, metadata))
    if not items:
        raise DataFormatError(path, None, "expected at least one question")
    return items


def load_psyeval(kind: str, data_dir: str | Path | None = None) -> list[McqItem]:
    """``kind`` is ``"usmle"`` (USMLE-mental.jsonl) or ``"crisis"`` (Crisis_Response_QA.jsonl)."""
    if kind not in FILES:
        raise ValueError(f"unknown Psy-Eval file {kind!r}; expected one of {', '.join(FILES)}")
    return parse_mcq_file(resolve_file(DATASET, FILES[kind], data_dir), kind)


def load_usmle(data_dir: str | Path | None = None) -> list[McqItem]:
    return load_psyeval("usmle", data_dir)


def load_crisis_qa(data_dir: str | Path | None = None) -> list[McqItem]:
    return load_psyeval("crisis", data_dir)


def count_rows(data_dir: str | Path | None) -> int:
    return sum(len(load_psyeval(kind, data_dir)) for kind in FILES)
