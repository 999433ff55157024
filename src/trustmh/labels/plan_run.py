"""The labelling plan of one field of a judged run (:mod:`trustmh.labels.plan`), from its log and pilot labels."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from trustmh.core.errors import UserError
from trustmh.judgecheck.ratings import read_ratings
from trustmh.judgecheck.verdicts import from_log
from trustmh.labels.plan import Plan, plan_from_judge, plan_from_pilot


def plan_for_run(log: Path, field: str, width: float, human: Path | None = None) -> Plan:
    verdicts = from_log(log)
    values = {s: v for (s, f), v in verdicts.values.items() if f == field and v is not None}
    if not values:
        raise UserError(f"{log}: no parsed verdict on field {field!r} (fields: {', '.join(verdicts.fields)})", "field")
    if any(isinstance(v, str) for v in values.values()):
        raise UserError(
            f"field {field!r} holds labels; a CI width is of a mean or a rate: plan a numeric field", "field"
        )
    judged = np.array([float(v) for v in values.values()])
    if human is None:
        binary = set(np.unique(judged)) <= {0.0, 1.0}
        scale = (0.0, 1.0) if binary else (float(judged.min()), float(judged.max()))
        return plan_from_judge(field, judged, width, scale)
    by_sample: dict[str, list[float]] = {}
    for rating in read_ratings(human):
        if rating.field == field and rating.turn is None and rating.sample_id in values:
            if isinstance(rating.value, str):
                raise UserError(
                    f"{rating.where}: field {field!r} is rated with the label {rating.value!r}; expected numbers"
                )
            by_sample.setdefault(rating.sample_id, []).append(rating.value)
    if len(by_sample) < 3:
        raise UserError(
            f"{human}: {len(by_sample)} pilot item(s) of {field!r} with a parsed verdict; a plan needs at least 3"
        )
    labels = np.array([np.mean(v) for v in by_sample.values()])
    paired = np.array([float(values[s]) for s in by_sample])
    return plan_from_pilot(field, labels, paired, judged, width)
