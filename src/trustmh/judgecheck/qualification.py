"""Qualification sets: labelled items a candidate judge is run on before it is trusted.

An item is a context, a response and the human label of each judged field (the mean of its
raters). Two sources:

* **MentalAlign-70k** (:func:`mentalalign_set`), built at run time, never shipped: a fixed,
  seeded sample of (conversation, response) pairs from the released human ratings, stratified
  by response model (``per_model`` pairs of each of the ten, among the pairs whose seven
  scores are all on the 1-5 scale), for the seven-attribute judge. MentalAlign-70k holds the
  ratings and contexts but not the response texts: those come from a MentalBench-100k-style
  wide file (``context``, ``response``, one column per response model), matched by ``ConvID``
  when that file has one, else by the exact context text.
* **A team's own set** (:func:`file_set`): JSONL, one item per line,
  ``{"id", "context", "response", "labels": {field: number}}``, for any rubric whose fields
  the labels name (:data:`RUBRICS`; add one there to qualify another judge); a label off its
  field's scale in the rubric (7 on 1-5) is an error naming the file, line and label.

The set's fingerprint (sha256 of ids, texts and labels) is recorded with a qualification, so
a drift check compares two judges on the same items only.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from trustmh.core.errors import DataFormatError, UserError
from trustmh.data.readers import read_jsonl
from trustmh.judgecheck.ratings import Scale
from trustmh.mentalalign.rubric import MENTALALIGN_RUBRIC
from trustmh.mentalalign.schema import (
    ATTRIBUTES,
    CONTEXT_COLUMN,
    HUMAN_PREFIX,
    ID_COLUMN,
    STRICT_SCORE_RANGE,
    response_column,
)
from trustmh.scoring.rubric import Rubric

if TYPE_CHECKING:
    from trustmh.bulk.tables import Table

MENTALALIGN_SET = "mentalalign70k"
QUALIFICATION_SEED = 20260101  # fixed: every team qualifying on MentalAlign-70k gets the same items
DEFAULT_PER_MODEL = 10
RUBRICS: dict[str, Rubric] = {"mentalalign": MENTALALIGN_RUBRIC}


@dataclass(frozen=True)
class QualificationItem:
    id: str
    context: str
    response: str
    labels: Mapping[str, float]


@dataclass(frozen=True)
class QualificationSet:
    name: str
    rubric: str  # a key of RUBRICS
    items: tuple[QualificationItem, ...]
    source: str  # how it was built, for the record

    @property
    def fingerprint(self) -> str:
        digest = hashlib.sha256()
        for item in self.items:
            record = [item.id, item.context, item.response, sorted(item.labels.items())]
            digest.update(json.dumps(record, ensure_ascii=False).encode())
        return digest.hexdigest()


def mentalalign_set(
    ratings: Path, conversations: Path, per_model: int = DEFAULT_PER_MODEL, seed: int = QUALIFICATION_SEED
) -> QualificationSet:
    """The MentalAlign-70k qualification set (see the module docstring)."""
    from trustmh.bulk.tables import read_table
    from trustmh.data.loaders.mentalalign import OK, read_ratings

    if per_model < 1:
        raise UserError(f"{per_model} items per response model: expected 1 or more", argument="per_model")
    human = read_ratings(ratings, HUMAN_PREFIX, STRICT_SCORE_RANGE)
    texts = read_table(conversations, [CONTEXT_COLUMN])
    row_of = _conversation_rows(ratings, human.conv_ids, texts)
    rng = np.random.default_rng(seed)
    items: list[QualificationItem] = []
    for k, key in enumerate(human.keys):
        column = response_column(key)
        if column not in texts.columns:
            continue
        usable = [
            i
            for i, conv in enumerate(human.conv_ids)
            if (human.status[i, k] == OK).all() and conv in row_of and texts.rows[row_of[conv]].get(column, "").strip()
        ]
        chosen = sorted(rng.choice(len(usable), min(per_model, len(usable)), replace=False)) if usable else []
        for index in chosen:
            i = usable[int(index)]
            row = texts.rows[row_of[human.conv_ids[i]]]
            labels = {name: float(human.scores[i, k, a]) for a, name in enumerate(ATTRIBUTES)}
            items.append(QualificationItem(f"{human.conv_ids[i]}/{key}", row[CONTEXT_COLUMN], row[column], labels))
    if not items:
        raise UserError(
            f"{conversations}: no response text for any rated pair of {ratings}; expected columns "
            f"{', '.join(response_column(k) for k in human.keys)} and a {ID_COLUMN} or the same contexts"
        )
    source = f"{ratings} (seed {seed}, {per_model} per response model) + texts from {conversations}"
    return QualificationSet(MENTALALIGN_SET, "mentalalign", tuple(items), source)


def _conversation_rows(ratings: Path, conv_ids: tuple[str, ...], texts: Table) -> dict[str, int]:
    """ConvID -> row of the texts file: by its ConvID column, else by the human file's contexts."""
    from trustmh.bulk.tables import read_table

    if ID_COLUMN in texts.columns:
        return {row[ID_COLUMN].strip(): i for i, row in enumerate(texts.rows)}
    human = read_table(ratings, [ID_COLUMN, CONTEXT_COLUMN])
    by_context = {row[CONTEXT_COLUMN].strip(): i for i, row in enumerate(texts.rows)}
    return {
        row[ID_COLUMN].strip(): by_context[row[CONTEXT_COLUMN].strip()]
        for row in human.rows
        if row[CONTEXT_COLUMN].strip() in by_context and row[ID_COLUMN].strip() in conv_ids
    }


def file_set(path: Path, rubric: str = "mentalalign") -> QualificationSet:
    """A team's own labelled set (JSONL; see the module docstring)."""
    if rubric not in RUBRICS:
        raise UserError(f"unknown rubric {rubric!r} (known: {', '.join(RUBRICS)})", argument="rubric")
    fields = {f.name: Scale.recorded(f.values()) for f in RUBRICS[rubric].fields}
    items: list[QualificationItem] = []
    seen: set[str] = set()
    for line, record in enumerate(read_jsonl(path), start=1):
        item = _item(path, line, record, fields)
        if item.id in seen:
            raise DataFormatError(path, f"line {line}", f"id {item.id!r} appears twice")
        seen.add(item.id)
        items.append(item)
    if len(items) < 2:
        raise DataFormatError(path, None, f"{len(items)} item(s); a qualification needs at least 2")
    return QualificationSet(path.stem, rubric, tuple(items), str(path))


def _item(path: Path, line: int, record: object, fields: Mapping[str, Scale | None]) -> QualificationItem:
    expected = 'expected {"id", "context", "response", "labels": {field: number}}'
    if not isinstance(record, dict) or not all(isinstance(record.get(k), str) for k in ("id", "context", "response")):
        raise DataFormatError(path, f"line {line}", expected)
    labels = record.get("labels")
    if not isinstance(labels, dict) or not labels:
        raise DataFormatError(path, f"line {line}", expected)
    for name, value in labels.items():
        if name not in fields:
            raise DataFormatError(
                path, f"line {line}", f"label {name!r} is not a field of the rubric ({', '.join(sorted(fields))})"
            )
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise DataFormatError(path, f"line {line}", f"label {name!r}: expected a number, found {value!r}")
        scale = fields[name]
        if scale is not None and (problem := scale.problem(name, float(value))) is not None:
            raise DataFormatError(path, f"line {line}, label {name!r}", problem)  # it would move the agreement
    return QualificationItem(
        record["id"], record["context"], record["response"], {k: float(v) for k, v in labels.items()}
    )
