"""Beside every judged metric: the judge's validation against humans, or "unvalidated".

Validation files are ``trustmh judge-check --json`` output (format ``trustmh-judge-check/1``).
A metric is *judged* when its log had a judge and a score field the metric reads (the log
records each metric's arguments) comes from the judge: a field named for it (``judge_refused``,
``over_refusal_judge``; not the parse rate ``judge_unparsed``) or one of the judge's own
verdict fields (``harmfulness``, a MentalAlign attribute). A validation applies to a metric
when it is of the same task and judge model and rated a field the metric reads.

The conversation tasks build their score fields from per-turn verdicts (``dcs`` at each turn ->
``dcs``, ``validated``, ``dcs_phase2`` ...) and declare which (task metadata
:data:`~trustmh.conversation.scores.DERIVED_FIELDS_KEY`); :func:`add_derived_fields` makes those
metrics judged and lets a per-turn validation (``unit`` turn; key ``"dcs (per turn)"``) apply to them.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from trustmh.conversation.scores import DERIVED_FIELDS_KEY
from trustmh.core.errors import DataFormatError
from trustmh.data.readers import read_json
from trustmh.report.judge_correction import Correction, is_headline, parse_correction, refusal

if TYPE_CHECKING:
    from trustmh.report.log_result import LogResult

FORMAT = "trustmh-judge-check/1"
NOT_JUDGED = ("judge_unparsed", "judge_unparsed_share")  # parse rates of the judge, not its verdicts
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
    unit: str = "sample"  # "turn": the items were single turns of conversations
    correction: Correction | None = None  # the judge's mean of the field corrected by the labels
    humans: str = ""  # the human raters' agreement among themselves (the judge's ceiling), as text

    @property
    def key(self) -> str:
        """What the validation matches among a metric's fields (see :func:`turn_key`)."""
        return self.field if self.unit == "sample" else turn_key(self.field)

    def text(self) -> str:
        """One line, e.g. ``Cohen's κ 0.91 [0.84, 0.97], n=140, 1 rater``."""

        def fmt(value: float | None) -> str:
            return "–" if value is None else f"{value:.2f}"

        ci = "" if self.ci[0] is None else f" [{fmt(self.ci[0])}, {fmt(self.ci[1])}]"
        raters = f"{self.raters} rater{'s' if self.raters != 1 else ''}"
        n = f"n={self.n}" + (" turns" if self.unit == "turn" else "")
        among = f"; humans among themselves: {self.humans}" if self.humans else ""
        return f"{SYMBOLS.get(self.statistic, self.statistic)} {fmt(self.value)}{ci}, {n}, {raters}{among}"


def humans_text(clinicians: Any) -> str:
    """``AC1 0.88 [0.80, 0.94], Fleiss' κ 0.61 [..], α 0.62 [..], n=40`` from judge-check's ``clinicians``."""
    if not isinstance(clinicians, dict):
        return ""

    def one(name: str, entry: Any) -> str:
        if not isinstance(entry, dict):
            return ""
        value, ci = _number(entry.get("value")), entry.get("ci") or [None, None]
        if value is None:
            return f"{name} –"
        low, high = (_number(c) if isinstance(c, (int, float)) else None for c in ci[:2])
        interval = "" if low is None or high is None else f" [{low:.2f}, {high:.2f}]"
        return f"{name} {value:.2f}{interval}"

    parts = [
        one(str(clinicians.get("gwet_name", "AC1")), clinicians.get("gwet_ac")),
        one("Fleiss' κ", clinicians.get("fleiss_kappa")),
        one("α", clinicians.get("krippendorff_alpha")),
    ]
    return ", ".join(p for p in parts if p) + f", n={clinicians.get('n', 0)}"


def turn_key(field: str) -> str:
    """A per-turn judge field among a metric's fields, apart from a score field of the same name."""
    return f"{field} (per turn)"


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
                        "turn" if entry.get("unit") == "turn" else "sample",
                        parse_correction(entry, payload.get("calibration"), Path(path), f"fields[{index}]"),
                        humans_text(entry.get("clinicians")),
                    )
                )
            except (KeyError, TypeError, ValueError, IndexError):
                raise DataFormatError(
                    path, f"fields[{index}]", "expected field, agreement, value, ci [low, high], n and raters"
                ) from None
    return out


def judged_fields(fields: Iterable[str], verdict_fields: set[str]) -> list[str]:
    return [f for f in fields if f not in NOT_JUDGED and ("judge" in f or f in verdict_fields)]


@dataclass(frozen=True)
class RunJudge:
    """What the report knows of the run's judge: its fingerprints (comparable keys), a label of
    them for messages, and the metric's value (to tell whether the correction is that metric)."""

    fingerprints: frozenset[str] = frozenset()
    label: str = ""
    value: float | None = None


def judgement(
    task: str,
    judge: str | None,
    metric: str,
    metric_fields: Mapping[str, list[str]],
    verdict_fields: set[str],
    validations: list[FieldValidation],
    sources: Collection[str] = (),
    run: RunJudge | None = None,
) -> tuple[str | None, Correction | None]:
    """The note beside a metric and the correction that becomes its headline, if any.

    The note: ``"judge vs humans: <agreement>"``, ``"unvalidated"``, or None for a metric no judge made.

    ``sources``: the judge fields the task declares its score fields are built from (see
    :func:`add_derived_fields`). A metric built from several of them (the VERA rates pool five
    dimension labels) names each validated field and lists the ones no validation covers, so a
    check of one dimension does not read as a check of the whole metric. A validation with a
    correction (PPI++) puts the corrected mean first (:mod:`trustmh.report.judge_correction`).
    """
    fields = judged_fields(metric_fields.get(metric.split("[", 1)[0], []), verdict_fields)
    if judge is None or not fields:
        return None, None
    run = run or RunJudge()
    same_task = [v for v in validations if v.task == task and v.key in fields]
    mine: dict[str, FieldValidation] = {}
    for validation in same_task:
        if validation.judge == judge:
            mine.setdefault(validation.key, validation)
    built_from = list(dict.fromkeys(_base(f) for f in fields if f in sources))
    if mine and len(built_from) > 1:
        named = "; ".join(f"{key}: {validation.text()}" for key, validation in mine.items())
        missing = [name for name in built_from if name not in {_base(key) for key in mine}]
        return f"judge vs humans: {named}" + (f" (unvalidated: {', '.join(missing)})" if missing else ""), None
    if mine:
        validation = next(iter(mine.values()))
        agreement = f"judge vs humans: {validation.text()}"
        if validation.correction is None:
            return agreement, None
        refused = refusal(validation.correction, validation.path, run.fingerprints, run.label)
        if refused:
            return f"{refused}; {agreement}", None
        if not is_headline(validation.correction, run.value, fields):
            return agreement, None  # a kappa or a grouped rate is not the field's mean the correction is of
        return f"{validation.correction.text()}; {agreement}", validation.correction
    if same_task:
        other = same_task[0]
        refused = (
            f"; correction refused: {other.path} was calibrated on judge {other.judge}, this run's judge is {judge}"
            if other.correction
            else ""
        )
        return f"unvalidated (the validation on file is of judge {other.judge}){refused}", None
    return "unvalidated", None


def _base(field: str) -> str:
    """A judge field without the per-turn mark of :func:`turn_key`."""
    return field.removesuffix(turn_key(""))


def add_derived_fields(
    metadata: Mapping[str, Any] | None,
    metric_fields: dict[str, list[str]],
    verdict_fields: set[str],
    turn_fields: set[str],
) -> set[str]:
    """Mark the score fields a task builds from judge fields as judged, and give each metric reading
    one of them those judge fields too: per-turn ones as :func:`turn_key`, verdict fields as named.
    Returns those judge fields (as they appear among the metrics' fields)."""
    declared = (metadata or {}).get(DERIVED_FIELDS_KEY)
    tied: set[str] = set()
    if not isinstance(declared, dict):
        return tied
    for judge_field, score_fields in declared.items():
        if not isinstance(score_fields, list):
            continue
        sources = [turn_key(judge_field)] if judge_field in turn_fields else []
        sources += [judge_field] if judge_field in verdict_fields else []
        verdict_fields.update(sources, score_fields)
        tied.update(sources)
        for fields in metric_fields.values():
            if any(name in fields for name in score_fields):
                fields += [name for name in sources if name not in fields]
    return tied


def annotate(results: Iterable[LogResult], validations: list[FieldValidation]) -> None:
    """Set each result's ``judge_notes`` (the note beside every judged metric, see
    :func:`judgement`) and ``judge_corrections`` (the corrected means that are the headline)."""
    from trustmh.report.judge_fingerprint import fingerprint_label

    for result in results:
        found = result.judge_fingerprints
        prints = frozenset(found.seen) if found is not None else frozenset()
        label = fingerprint_label(found) if found is not None else ""
        for row in result.rows:
            note, correction = judgement(
                result.task,
                row.judge,
                row.metric,
                result.metric_fields,
                result.verdict_fields,
                validations,
                result.judge_sources,
                RunJudge(prints, label, row.value),
            )
            if note is not None:
                result.judge_notes[row.metric] = note
            if correction is not None:
                result.judge_corrections[row.metric] = correction
