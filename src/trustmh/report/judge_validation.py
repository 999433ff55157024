"""Beside every judged metric: the judge's validation against humans, or "unvalidated".

Validation files are ``trustmh judge-check --json`` output (format ``trustmh-judge-check/1``).
A metric is *judged* when its log had a judge and a score field the metric reads (the log
records each metric's arguments) comes from the judge: a field named for it (``judge_refused``,
``over_refusal_judge``; not the parse rate ``judge_unparsed``) or one of the judge's own
verdict fields (``harmfulness``, a MentalAlign attribute). A validation applies to a metric
when it is of the same task and judge model and rated a field the metric reads.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trustmh.data.readers import read_json
from trustmh.errors import DataFormatError
from trustmh.report.collect import LogResult

FORMAT = "trustmh-judge-check/1"
NOT_JUDGED = ("judge_unparsed",)
SYMBOLS = {"icc_a1": "ICC(A,1)", "cohen_kappa": "Cohen's κ", "fleiss_kappa": "Fleiss' κ"}


@dataclass(frozen=True)
class FieldValidation:
    path: str
    task: str | None
    judge: str
    field: str
    statistic: str
    value: float | None
    ci: tuple[float | None, float | None]
    n: int
    raters: int

    def text(self) -> str:
        """One line, e.g. ``Cohen's κ 0.91 [0.84, 0.97], n=140, 1 rater``."""

        def fmt(value: float | None) -> str:
            return "–" if value is None else f"{value:.2f}"

        ci = "" if self.ci[0] is None else f" [{fmt(self.ci[0])}, {fmt(self.ci[1])}]"
        raters = f"{self.raters} rater{'s' if self.raters != 1 else ''}"
        return f"{SYMBOLS.get(self.statistic, self.statistic)} {fmt(self.value)}{ci}, n={self.n}, {raters}"


def _number(value: Any) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


def load_validations(paths: Iterable[Path]) -> list[FieldValidation]:
    """Every field of every validation file; a file of another shape is a one-line error."""
    out: list[FieldValidation] = []
    for path in paths:
        payload = read_json(Path(path))
        if not isinstance(payload, dict) or payload.get("format") != FORMAT:
            raise DataFormatError(path, None, f"expected `trustmh judge-check --json` output (format {FORMAT})")
        fields = payload.get("fields")
        if not isinstance(fields, list) or not isinstance(payload.get("judge"), str):
            raise DataFormatError(path, "judge/fields", "expected a judge name and a list of fields")
        for index, entry in enumerate(fields):
            try:
                ci = entry["ci"]
                out.append(
                    FieldValidation(
                        str(path),
                        payload.get("task") if isinstance(payload.get("task"), str) else None,
                        payload["judge"],
                        str(entry["field"]),
                        str(entry["agreement"]),
                        _number(entry["value"]),
                        (_number(ci[0]), _number(ci[1])),
                        int(entry["n"]),
                        len(entry["raters"]),
                    )
                )
            except (KeyError, TypeError, ValueError, IndexError):
                raise DataFormatError(
                    path, f"fields[{index}]", "expected field, agreement, value, ci [low, high], n and raters"
                ) from None
    return out


def judged_fields(fields: Iterable[str], verdict_fields: set[str]) -> list[str]:
    return [f for f in fields if f not in NOT_JUDGED and ("judge" in f or f in verdict_fields)]


def validation_note(
    task: str,
    judge: str | None,
    metric: str,
    metric_fields: Mapping[str, list[str]],
    verdict_fields: set[str],
    validations: list[FieldValidation],
) -> str | None:
    """The text beside a metric: ``"judge vs humans: <agreement>"``, ``"unvalidated"``, or None for a metric no judge made."""
    fields = judged_fields(metric_fields.get(metric.split("[", 1)[0], []), verdict_fields)
    if judge is None or not fields:
        return None
    same_task = [v for v in validations if v.task == task and v.field in fields]
    for validation in same_task:
        if validation.judge == judge:
            return f"judge vs humans: {validation.text()}"
    if same_task:
        return f"unvalidated (the validation on file is of judge {same_task[0].judge})"
    return "unvalidated"


def annotate(results: Iterable[LogResult], validations: list[FieldValidation]) -> None:
    """Set each result's ``judge_notes``: the note beside every judged metric (see :func:`validation_note`)."""
    for result in results:
        for row in result.rows:
            note = validation_note(
                result.task, row.judge, row.metric, result.metric_fields, result.verdict_fields, validations
            )
            if note is not None:
                result.judge_notes[row.metric] = note
