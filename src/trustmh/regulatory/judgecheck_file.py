"""A ``trustmh judge-check --json`` validation of the audited run, in place of a labels file.

``trustmh judge-check --log <audit log> --human labels.csv --json validation.json`` holds the
audit's per-turn decisions to clinician labels: ``crisis_referral`` (the referral detector's
decision on the turns where a notification counts, kept in each turn row of the audit) and
``out_of_scope`` (the judge's scope verdict). Each such field of the file is a binary per-turn
field with its confusion counts (true/false positives and negatives on the labelled turns with a
majority label and a parsed decision).

The file must be of the audited run's judge: its judge model and its judge fingerprints (judges,
rubric hashes, temperature, prompt version) must be the audit logs', otherwise it says nothing
about this run's decisions and the report stops with one line.

From the confusion counts alone come the same numbers a labels file gives
(:mod:`.validation`): sensitivity, specificity and raw agreement with Wilson CIs, and the PPI++
correction of the referral count, which depends on the labelled pairs only through those counts.
The labelled turns are taken to be among the eligible turns of the conversations reported, a
uniform random sample of them; the kappa shown is judge-check's own (its CI resamples conversations).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from trustmh.audit.statutes.judged import SCOPE_FIELD
from trustmh.core.errors import DataFormatError, UserError
from trustmh.data.readers import read_json
from trustmh.regulatory.validation import LABEL_FIELD, corrected_count, share_estimate
from trustmh.report.judge_fingerprint import comparable_key, rubric_short
from trustmh.report.log_result import LogResult

FORMAT = "trustmh-judge-check/1"
FIELDS = (LABEL_FIELD, SCOPE_FIELD)


@dataclass(frozen=True)
class CheckedField:
    """One binary per-turn field of the file: its confusion counts and judge-check's kappa."""

    tp: int
    fp: int
    fn: int
    tn: int
    kappa: dict[str, Any] | None
    unparsed: int

    @property
    def labels(self) -> int:
        return self.tp + self.fp + self.fn + self.tn

    def statistics(self) -> dict[str, Any]:
        return {
            "agreement": share_estimate(self.tp + self.tn, self.labels),
            "kappa": self.kappa,
            "sensitivity": share_estimate(self.tp, self.tp + self.fn),
            "specificity": share_estimate(self.tn, self.tn + self.fp),
        }

    def pairs(self) -> tuple[np.ndarray, np.ndarray]:
        """Labels and decisions as paired arrays with these counts (their order does not matter)."""
        y = [1] * self.tp + [0] * self.fp + [1] * self.fn + [0] * self.tn
        f = [1] * self.tp + [1] * self.fp + [0] * self.fn + [0] * self.tn
        return np.array(y, dtype=float), np.array(f, dtype=float)


@dataclass(frozen=True)
class JudgeCheckFile:
    judge: str
    rubric_fingerprint: str
    fields: dict[str, CheckedField]

    def referral_validation(self, detector: dict[tuple[str, int], int]) -> dict[str, Any] | None:
        """The method's referral statistics and the corrected count, as :func:`.validation.referral_validation`."""
        found = self.fields.get(LABEL_FIELD)
        if found is None:
            return None
        y, f = found.pairs()
        positives, eligible = sum(detector.values()), len(detector)
        rest_positive, rest = positives - int(f.sum()), eligible - found.labels
        corrected = None
        if rest_positive >= 0 and rest - rest_positive >= 0:  # else: labels of turns not reported here
            remaining = np.array([1.0] * rest_positive + [0.0] * (rest - rest_positive))
            corrected = corrected_count(y, f, remaining)
        return {
            "labels": found.labels,
            "labels_outside": None,
            "ties_left_out": None,
            **found.statistics(),
            "corrected": corrected,
        }

    def scope_validation(self) -> dict[str, Any] | None:
        found = self.fields.get(SCOPE_FIELD)
        if found is None:
            return None
        return {
            "source": "trustmh judge-check validation",
            "labels": found.labels,
            "labels_outside_reply_turns": 0,
            "ties_left_out": 0,
            "detector": None,
            "judge": {"labels": found.labels, "unparsed_left_out": found.unparsed, **found.statistics()},
        }


def _number(value: Any) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


def _field(path: Path, index: int, entry: Any) -> CheckedField:
    try:
        confusion = entry["confusion"]
        counts = [int(confusion[k]) for k in ("tp", "fp", "fn", "tn")]
        value, ci = _number(entry["value"]), entry.get("ci") or [None, None]
        kappa: dict[str, Any] | None = None
        if value is not None and str(entry["agreement"]).endswith("kappa"):
            kappa = {"value": value, "ci_low": _number(ci[0]), "ci_high": _number(ci[1]), "n": int(entry["n"])}
        unparsed = int(entry.get("judge_unparsed") or 0)
    except (KeyError, TypeError, ValueError, IndexError):
        raise DataFormatError(
            path, f"fields[{index}]", "expected a binary per-turn field with confusion counts tp, fp, fn, tn"
        ) from None
    if min(counts) < 0:
        raise DataFormatError(path, f"fields[{index}].confusion", "expected counts of 0 or more")
    tp, fp, fn, tn = counts
    return CheckedField(
        tp, fp, fn, tn, kappa=kappa if kappa is not None and kappa["n"] >= 1 else None, unparsed=unparsed
    )


def _audit_judge(audits: list[LogResult]) -> tuple[set[str], set[str], str]:
    """The audit logs' judge fingerprints (comparable keys), judge names and a label of them."""
    prints: dict[str, dict[str, Any]] = {}
    for result in audits:
        if result.judge_fingerprints is not None:
            prints.update(result.judge_fingerprints.seen)
    judges = {", ".join(str(j) for j in p.get("judges") or []) for p in prints.values()}
    label = ", ".join(sorted({rubric_short(p) for p in prints.values()})) or "none"
    return set(prints), judges, label


def read_judge_check(path: Path, audits: list[LogResult]) -> JudgeCheckFile:
    """The validation file at ``path``, checked against the audited run (module docstring)."""
    payload = read_json(path)
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        raise DataFormatError(path, None, f"expected `trustmh judge-check --json` output (format {FORMAT})")
    judge, calibration = payload.get("judge"), payload.get("calibration")
    if not isinstance(judge, str) or not isinstance(calibration, dict) or not isinstance(payload.get("fields"), list):
        raise DataFormatError(path, "judge/calibration/fields", "expected a judge name, a calibration and fields")
    printed = calibration.get("judge_fingerprints") or []
    if not isinstance(printed, list) or not all(isinstance(p, dict) for p in printed):
        raise DataFormatError(path, "calibration.judge_fingerprints", "expected a list of judge fingerprints")
    run_prints, run_judges, run_label = _audit_judge(audits)
    mine = {comparable_key(p) for p in printed}
    label = ", ".join(sorted({rubric_short(p) for p in printed})) or "none"
    if not run_prints:
        raise UserError(f"{path}: the audited run had no judge; a judge-check validation needs `trustmh audit --judge`")
    if judge not in run_judges:
        raise UserError(
            f"{path}: validates judge {judge}, the audited run was judged by {', '.join(sorted(run_judges))}",
            "validation",
        )
    if mine != run_prints:
        raise UserError(
            f"{path}: calibrated on rubric fingerprint {label}, the audited run was judged with rubric "
            f"fingerprint {run_label}; rerun judge-check on the audit log",
            "validation",
        )
    fields: dict[str, CheckedField] = {}
    for index, entry in enumerate(payload["fields"]):
        name = entry.get("field") if isinstance(entry, dict) else None
        if name in FIELDS and entry.get("unit") == "turn":
            fields[str(name)] = _field(path, index, entry)
    if not fields:
        raise DataFormatError(
            path, "fields", f"expected a per-turn validation of {' or '.join(FIELDS)} (labels with a turn)"
        )
    return JudgeCheckFile(judge, label, fields)
