"""Argilla (2.x): the dataset settings generated from the rubric, the records, and the export read back.

**Settings** (:func:`settings`): two text fields (the conversation, the answer) and per rubric
field one question, titled with the rubric's own question: a ``rating`` question with the
scale's integer values, or a ``label_selection`` over the rubric's choices. Create the dataset
from them with the SDK (``rg.Settings(fields=[rg.TextField(...)], questions=[rg.RatingQuestion(...)
or rg.LabelQuestion(...)])``, docs/labels.md).

**Records** (:func:`records`): ``{"id": ITEM, "fields": {"conversation", "answer"}, "metadata":
{set id, rubric fingerprints}, "suggestions": {FIELD: {"value", "agent"}}}``; no suggestions when
the set is blind (Argilla shows a suggestion pre-filled).

**Export** (:func:`read_export`): the records as ``dataset.records.to_list(flatten=False)`` gives
them (saved as JSON): each with ``id``, ``metadata`` and ``responses``, ``{FIELD: [{"value",
"user_id", "status"}]}``. A response whose ``status`` is ``discarded`` is counted as skipped (once
per user and record), a ``draft`` as unanswered; ``submitted`` (or no status) is a label. The rater
is ``argilla-<user_id>``.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from trustmh.core.errors import DataFormatError
from trustmh.labels.labelset import LabelSet
from trustmh.labels.reading import DATA_ITEM, DATA_RUBRICS, DATA_SET, Imported, open_export


def settings(labelset: LabelSet) -> dict[str, Any]:
    """The dataset settings of the set's fields (module docstring)."""
    questions = []
    for spec in labelset.fields:
        question: dict[str, Any] = {"name": spec.name, "title": f"{spec.name}: {spec.question}", "required": False}
        if spec.choices:
            question.update(type="label_selection", labels=list(spec.choices))
        else:
            question.update(type="rating", values=list(range(spec.low, spec.high + 1)))
        questions.append(question)
    return {
        "guidelines": "Rate the answer under evaluation on each question, as the rubric asks.",
        "fields": [
            {"name": "conversation", "title": "Conversation", "type": "text"},
            {"name": "answer", "title": "Answer under evaluation", "type": "text"},
        ],
        "questions": questions,
        "metadata": [{"name": DATA_SET, "type": "terms"}, {"name": DATA_RUBRICS, "type": "terms"}],
    }


def _transcript(conversation: list[dict[str, str]]) -> str:
    return "\n\n".join(f"{turn['role']}: {turn['text']}" for turn in conversation)


def records(labelset: LabelSet) -> list[dict[str, Any]]:
    """The Argilla records of the set (module docstring)."""
    out = []
    for item in labelset.items:
        record: dict[str, Any] = {
            "id": item.item,
            "fields": {"conversation": _transcript(item.conversation), "answer": item.answer},
            "metadata": {DATA_SET: labelset.set_id, DATA_RUBRICS: labelset.rubric_fingerprint},
        }
        if not labelset.blind:
            record["suggestions"] = {
                spec.name: {"value": value if isinstance(value, str) else int(value), "agent": labelset.run["judge"]}
                for spec in labelset.fields
                if (value := item.judge.get(spec.name)) is not None
            }
        out.append(record)
    return out


def read_export(path: Path, labelset: LabelSet) -> Imported:
    """The ratings of exported Argilla records (module docstring)."""
    payload, checker, imported = open_export(path, labelset, "Argilla records: a list of {id, metadata, responses}")
    for r, record in enumerate(payload):
        where = f"record {r + 1}"
        if not isinstance(record, dict) or not isinstance(record.get("responses") or {}, dict):
            raise DataFormatError(path, where, "expected a record object with responses {FIELD: [response]}")
        item = checker.task_item({**(record.get("metadata") or {}), DATA_ITEM: record.get("id")}, where)
        discarded: set[str] = set()
        answered: dict[str, set[str]] = defaultdict(set)
        for name, responses in (record.get("responses") or {}).items():
            for k, response in enumerate(responses if isinstance(responses, list) else []):
                at = f"{where} ({item.item}), responses.{name}[{k}]"
                user = response.get("user_id") if isinstance(response, dict) else None
                if not isinstance(user, (str, int)) or isinstance(user, bool) or not str(user).strip():
                    raise DataFormatError(path, at, "expected a response with value and user_id")
                rater, status = f"argilla-{str(user).strip()}", str(response.get("status") or "submitted")
                if status == "discarded":
                    discarded.add(rater)
                elif status == "submitted":
                    imported.ratings.append(checker.rating(item, str(name), rater, response.get("value"), at))
                    answered[rater].add(str(name))
        for rater in discarded:
            imported.skipped[rater] += 1
        for rater, names in answered.items():
            imported.unanswered[rater] += len([f for f in labelset.fields if f.name not in names])
    return imported
