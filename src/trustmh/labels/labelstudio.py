"""Label Studio: the labelling configuration generated from the rubric, the tasks, and the export read back.

**Configuration** (:func:`config_xml`): the conversation as a dialogue (``Paragraphs``), the
answer under evaluation (``Text``), then per field a ``Header`` with the rubric's own question
and a single-choice ``Choices`` control named after the field, one ``Choice`` per scale point
or rubric choice. Every text in it comes from the rubric and is XML-escaped (an ``&``, ``<`` or
quote in a rubric cannot break or inject markup); a header never starts with ``$`` (Label Studio
would read it as a reference to task data).

**Tasks** (:func:`tasks`): ``{"data": {...}, "predictions": [...]}``, one per item. ``data``
holds the conversation, the answer, the opaque item id and the set id / rubric fingerprints
(:mod:`trustmh.labels.reading`); nothing about the stratum or the weight. The judge's verdict is
a prediction (shown as a pre-annotation) unless the set is blind.

**Export** (:func:`read_export`): Label Studio's JSON export (Export > JSON, or
``GET /api/projects/<id>/export?exportType=JSON``): a list of tasks, each with ``data`` and
``annotations``; an annotation has ``completed_by`` (the annotator's user id, or an object with
``id``), ``was_cancelled`` and ``result``, a list of ``{"from_name": FIELD, "type": "choices",
"value": {"choices": [VALUE]}}``. The rater is ``labelstudio-<user id>``. A cancelled (skipped)
annotation is counted, not scored. Predictions in the export are ignored (they are the judge's).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from xml.sax.saxutils import quoteattr

from trustmh.core.errors import DataFormatError
from trustmh.labels.labelset import LabelSet, SetItem
from trustmh.labels.reading import DATA_ITEM, DATA_RUBRICS, DATA_SET, Imported, open_export

CONVERSATION, ANSWER = "trustmh_conversation", "trustmh_answer"  # object tag names: never a field's


def _header(text: str) -> str:
    return f"  <Header value={quoteattr(text)}/>"


def config_xml(labelset: LabelSet) -> str:
    """The labelling configuration of the set's fields (module docstring)."""
    lines = [
        "<View>",
        _header("Conversation"),
        f'  <Paragraphs name="{CONVERSATION}" value="$conversation" layout="dialogue" nameKey="role" textKey="text"/>',
        _header("Answer under evaluation"),
        f'  <Text name="{ANSWER}" value="$answer"/>',
    ]
    for spec in labelset.fields:
        lines.append(_header(f"{spec.name}: {spec.question}"))
        lines.append(f'  <Choices name={quoteattr(spec.name)} toName="{ANSWER}" choice="single" showInline="true">')
        lines += [f"    <Choice value={quoteattr(option)}/>" for option in spec.options]
        lines.append("  </Choices>")
    lines.append("</View>")
    return "\n".join(lines) + "\n"


def _prediction(labelset: LabelSet, item: SetItem) -> list[dict[str, Any]]:
    result = []
    for spec in labelset.fields:
        value = item.judge.get(spec.name)
        if value is None:
            continue  # an unparsed verdict has nothing to pre-fill
        shown = value if isinstance(value, str) else f"{value:g}"
        result.append({"from_name": spec.name, "to_name": ANSWER, "type": "choices", "value": {"choices": [shown]}})
    return [{"model_version": f"judge {labelset.run['judge']}", "result": result}] if result else []


def tasks(labelset: LabelSet) -> list[dict[str, Any]]:
    """The Label Studio tasks of the set (module docstring)."""
    out = []
    for item in labelset.items:
        task: dict[str, Any] = {
            "data": {
                DATA_ITEM: item.item,
                DATA_SET: labelset.set_id,
                DATA_RUBRICS: labelset.rubric_fingerprint,
                "conversation": item.conversation or [{"role": "user", "text": ""}],
                "answer": item.answer,
            }
        }
        if not labelset.blind:
            task["predictions"] = _prediction(labelset, item)
        out.append(task)
    return out


def _rater(annotation: dict[str, Any], path: Path, where: str) -> str:
    who = annotation.get("completed_by")
    if isinstance(who, dict):
        who = who.get("id")
    if isinstance(who, bool) or not isinstance(who, (int, str)) or not str(who).strip():
        raise DataFormatError(path, where, "expected completed_by: the annotator's user id")
    return f"labelstudio-{str(who).strip()}"


def read_export(path: Path, labelset: LabelSet) -> Imported:
    """The ratings of a Label Studio JSON export (module docstring)."""
    payload, checker, imported = open_export(path, labelset, "Label Studio's JSON export: a list of tasks")
    for t, task in enumerate(payload):
        where = f"task {t + 1}"
        if not isinstance(task, dict) or not isinstance(task.get("annotations", []), list):
            raise DataFormatError(path, where, "expected a task object with data and a list of annotations")
        item = checker.task_item(task.get("data"), where)
        for a, annotation in enumerate(task.get("annotations") or []):
            at = f"{where} ({item.item}), annotation {a + 1}"
            if not isinstance(annotation, dict):
                raise DataFormatError(path, at, "expected an annotation object")
            rater = _rater(annotation, path, at)
            if annotation.get("was_cancelled"):
                imported.skipped[rater] += 1
                continue
            answered = set()
            for r, region in enumerate(annotation.get("result") or []):
                spot = f"{at}, result {r + 1}"
                choices = (region.get("value") or {}).get("choices") if isinstance(region, dict) else None
                if not isinstance(choices, list) or len(choices) != 1:
                    raise DataFormatError(path, spot, "expected one choice: value.choices = [VALUE]")
                name = str(region.get("from_name"))
                imported.ratings.append(checker.rating(item, name, rater, choices[0], spot))
                answered.add(name)
            imported.unanswered[rater] += len([f for f in labelset.fields if f.name not in answered])
    return imported
