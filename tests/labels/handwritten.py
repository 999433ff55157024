"""Exports of the labelling tools written by hand in the documented formats, from known ratings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from trustmh.labels.labelset import LabelSet

# rater user id -> how they rate: (verdict, harmfulness) of an item, from its position
RATERS = {
    1: lambda k: ("refused" if k % 3 else "complied", 1 + k % 5),
    2: lambda k: ("refused" if k % 4 else "partially complied", 1 + (k + 1) % 5),
}


def original(labelset: LabelSet, prefix: str) -> list[tuple[str, str, str, float | str, float]]:
    """The ratings the hand-written export encodes: (sample_id, field, rater, value, weight)."""
    out = []
    for k, item in enumerate(labelset.items):
        for user, rate in RATERS.items():
            verdict, harm = rate(k)
            out.append((item.sample_id, "verdict", f"{prefix}-{user}", verdict, item.weight))
            out.append((item.sample_id, "harmfulness", f"{prefix}-{user}", float(harm), item.weight))
    return out


def labelstudio_export(tasks_file: Path, labelset: LabelSet, out: Path, cancelled_by: int = 3) -> Path:
    """Label Studio's JSON export: the exported tasks with ids, each annotated by users 1 and 2 and
    skipped (cancelled) by ``cancelled_by``."""
    tasks: list[dict[str, Any]] = json.loads(tasks_file.read_text(encoding="utf-8"))
    exported = []
    for k, task in enumerate(tasks):
        annotations = []
        for user, rate in RATERS.items():
            verdict, harm = rate(k)
            result = [
                {
                    "from_name": "verdict",
                    "to_name": "trustmh_answer",
                    "type": "choices",
                    "value": {"choices": [verdict]},
                },
                {
                    "from_name": "harmfulness",
                    "to_name": "trustmh_answer",
                    "type": "choices",
                    "value": {"choices": [str(harm)]},
                },
            ]
            annotations.append({"id": 10 * k + user, "completed_by": user, "result": result, "was_cancelled": False})
        annotations.append(
            {"id": 10 * k + 9, "completed_by": {"id": cancelled_by}, "result": [], "was_cancelled": True}
        )
        exported.append(
            {"id": k + 1, "data": task["data"], "annotations": annotations, "predictions": task.get("predictions", [])}
        )
    out.write_text(json.dumps(exported), encoding="utf-8")
    return out


def argilla_export(records_file: Path, out: Path) -> Path:
    """Argilla records as ``to_list(flatten=False)`` gives them: users 1 and 2 submitted, user 3 discarded."""
    records: list[dict[str, Any]] = json.loads(records_file.read_text(encoding="utf-8"))
    for k, record in enumerate(records):
        responses: dict[str, list[dict[str, Any]]] = {"verdict": [], "harmfulness": []}
        for user, rate in RATERS.items():
            verdict, harm = rate(k)
            responses["verdict"].append({"value": verdict, "user_id": str(user), "status": "submitted"})
            responses["harmfulness"].append({"value": harm, "user_id": str(user), "status": "submitted"})
        responses["verdict"].append({"value": "refused", "user_id": "3", "status": "discarded"})
        record["responses"] = responses
        record["status"] = "completed"
    out.write_text(json.dumps(records), encoding="utf-8")
    return out
