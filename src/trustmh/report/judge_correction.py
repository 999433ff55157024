"""A judged metric corrected by human labels (PPI++), as ``trustmh judge-check --json`` computed it.

A field's ``correction`` (:mod:`trustmh.judgecheck.correction`) is the judge's mean over the run
corrected by the labels, with the judge-only and human-only means beside it; the file's
``calibration`` records what it was calibrated on (label file, judge, the run's judge
fingerprints). In the report it becomes the headline of a metric when all of these hold:

* the validation is of the metric's task and judge, and its judge fingerprints (judges, rubric
  hashes, temperature, prompt version) are the run's: otherwise the correction is **refused**
  with one line saying why (a correction calibrated on another judge or rubric says nothing
  about this one's errors);
* the metric reads that one judged field, and its value is the correction's judge-only mean
  (the field's plain mean over the same run): a metric that is something else (a kappa, a
  grouped rate) keeps its value and its agreement note, without the correction, which is not of it.

The judge-only number stays visible in the note.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trustmh.core.errors import DataFormatError
from trustmh.report.judge_fingerprint import comparable_key, rubric_short

# How close the metric's value must be to the correction's judge-only mean to count as the same mean.
SAME_MEAN_TOLERANCE = 1e-9
Interval = tuple[float, float]


@dataclass(frozen=True)
class Correction:
    """One field's PPI++ correction, and what it was calibrated on."""

    value: float
    ci: Interval
    n_labelled: int
    n_unlabelled: int
    judge_only: float
    judge_only_ci: Interval
    human_only: float
    human_only_ci: Interval
    effective_n_gained: float
    fingerprints: tuple[str, ...]  # comparable_key of each judge fingerprint of the calibrated run
    fingerprint_label: str  # rubric hash(es), for messages
    labels: str = ""  # the label file's name (not its folder: paths can say more than they should)

    def text(self) -> str:
        source = f" from {self.labels}" if self.labels else ""
        return (
            f"corrected by {self.n_labelled} human labels{source} (PPI++, rubric {self.fingerprint_label}): "
            f"{_fmt(self.value)} {_ci(self.ci)}; "
            f"judge-only {_fmt(self.judge_only)} {_ci(self.judge_only_ci)}, "
            f"human-only {_fmt(self.human_only)} {_ci(self.human_only_ci)}"
        )


def _fmt(value: float) -> str:
    return f"{value:.3f}" if math.isfinite(value) else "–"


def _ci(ci: Interval) -> str:
    return f"[{_fmt(ci[0])}, {_fmt(ci[1])}]"


def _float(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(value)
    return float(value)


def _pair(value: Any) -> Interval:
    return (_float(value[0]), _float(value[1]))


def parse_correction(entry: Mapping[str, Any], calibration: Any, path: Path, where: str) -> Correction | None:
    """A field's correction from a judge-check file; None when absent or skipped. A malformed
    one is a one-line :class:`DataFormatError` naming the field."""
    found = entry.get("correction")
    if not isinstance(found, dict) or "skipped" in found:
        return None
    try:
        prints = (calibration or {}).get("judge_fingerprints") or []
        return Correction(
            value=_float(found["estimate"]),
            ci=_pair(found["ci"]),
            n_labelled=int(found["n_labelled"]),
            n_unlabelled=int(found["n_unlabelled"]),
            judge_only=_float(found["judge_only"]["value"]),
            judge_only_ci=_pair(found["judge_only"]["ci"]),
            human_only=_float(found["human_only"]["value"]),
            human_only_ci=_pair(found["human_only"]["ci"]),
            effective_n_gained=_float(found["effective_n_gained"]),
            fingerprints=tuple(sorted(comparable_key(p) for p in prints)),
            fingerprint_label=", ".join(rubric_short(p) for p in prints) or "none recorded",
            labels=Path(str((calibration or {}).get("labels") or "")).name,
        )
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        raise DataFormatError(
            path,
            f"{where}.correction",
            "expected estimate, ci, n_labelled, n_unlabelled, judge_only, human_only and effective_n_gained",
        ) from None


def refusal(correction: Correction, source: str, run_fingerprints: Collection[str], run_label: str) -> str | None:
    """One line when the correction was calibrated on other judge fingerprints than the run's."""
    if not run_fingerprints or tuple(sorted(run_fingerprints)) == correction.fingerprints:
        return None
    return (
        f"correction refused: {source} was calibrated on rubric fingerprint {correction.fingerprint_label}, "
        f"this run was judged with {run_label}; rerun judge-check on this run"
    )


def is_headline(correction: Correction, value: float | None, fields: list[str]) -> bool:
    """Whether the corrected mean replaces the metric's value (see the module docstring)."""
    return (
        len(fields) == 1
        and value is not None
        and math.isfinite(value)
        and abs(value - correction.judge_only) <= SAME_MEAN_TOLERANCE * max(1.0, abs(value))
    )
