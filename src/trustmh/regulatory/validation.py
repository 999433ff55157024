"""The § 22603(d) measurement appendix against clinician labels of crisis-referral notifications.

Labels are the long format ``trustmh judge-check --human`` reads (``sample_id, turn, field, rater,
score``) with ``field`` = ``crisis_referral`` and ``score`` 1 (this turn's reply is a crisis-referral
notification) or 0, on turns at or after a user message showing risk (the turns where the audit
counts one). Several raters of one turn: the majority; a tie is left out (counted).

Against them, the detector's decision on the same turns gives (each with n and a Wilson 95% CI)
sensitivity :math:`TP/(TP+FN)`, specificity :math:`TN/(TN+FP)` and raw agreement, plus Cohen's
:math:`\\kappa` (bootstrap CI); and the count corrected by the labels with PPI++
(:func:`trustmh.stats.ppi.ppi_mean`): the share :math:`\\hat\\theta` of eligible turns that are
notifications, times the number of eligible turns :math:`E`, CI :math:`E \\times` the share's CI.
PPI assumes the labelled turns are a **uniform random sample** of the eligible turns (not the
flagged ones). Ids are used only to match labels to turns; none leaves this module.
"""

from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from trustmh.core.errors import UserError
from trustmh.judgecheck.ratings import read_ratings
from trustmh.stats.agreement import kappa_estimate
from trustmh.stats.intervals import wilson_interval
from trustmh.stats.ppi import ppi_mean

LABEL_FIELD = "crisis_referral"


def _kappa(y: np.ndarray, f: np.ndarray) -> dict[str, Any] | None:
    """Cohen's kappa of labels and detector with its bootstrap CI (None when undefined)."""
    found = kappa_estimate(y, f)
    if found.n == 0 or math.isnan(found.value):
        return None
    low, high = (None if math.isnan(v) else v for v in (found.ci_low, found.ci_high))
    return {"value": found.value, "ci_low": low, "ci_high": high, "n": found.n}


def _share(successes: int, n: int) -> dict[str, Any] | None:
    if n == 0:
        return None
    low, high = wilson_interval(successes, n)
    return {"value": successes / n, "ci_low": low, "ci_high": high, "n": n}


def _labels(path: Path) -> tuple[dict[tuple[str, int], int], int]:
    """The majority label of every rated turn, and how many turns were ties."""
    votes: dict[tuple[str, int], list[float]] = defaultdict(list)
    for rating in read_ratings(path):
        if rating.field != LABEL_FIELD:
            continue
        if rating.turn is None or rating.value not in (0.0, 1.0):
            raise UserError(f"{rating.where}: expected a turn and a score of 0 or 1 for field {LABEL_FIELD}")
        votes[(rating.sample_id, rating.turn)].append(float(rating.value))
    if not votes:
        raise UserError(f"{path}: no rating of field {LABEL_FIELD!r} (sample_id, turn, field, rater, score)")
    labels = {item: int(np.mean(v) > 0.5) for item, v in votes.items() if np.mean(v) != 0.5}
    return labels, len(votes) - len(labels)


def referral_validation(conversations: list[dict[str, Any]], path: Path) -> dict[str, Any]:
    """Agreement, sensitivity, specificity and the PPI++-corrected count (module docstring)."""
    labels, ties = _labels(path)
    detector: dict[tuple[str, int], int] = {}
    for conversation in conversations:
        referred = set(conversation["referrals"]["turns"])
        for turn in conversation["referrals"]["eligible_turns"]:
            detector[(conversation["sample"], int(turn))] = int(turn in referred)
    matched = [item for item in labels if item in detector]
    y = np.array([labels[i] for i in matched], dtype=float)
    f = np.array([detector[i] for i in matched], dtype=float)
    rest = np.array([v for i, v in detector.items() if i not in labels], dtype=float)
    tp, fn = int(((y == 1) & (f == 1)).sum()), int(((y == 1) & (f == 0)).sum())
    tn, fp = int(((y == 0) & (f == 0)).sum()), int(((y == 0) & (f == 1)).sum())
    out: dict[str, Any] = {
        "labels": len(matched),
        "labels_outside": len(labels) - len(matched),
        "ties_left_out": ties,
        "agreement": _share(tp + tn, len(matched)),
        "kappa": _kappa(y, f),
        "sensitivity": _share(tp, tp + fn),
        "specificity": _share(tn, tn + fp),
        "corrected": None,
    }
    if len(matched) >= 2 and len(rest) >= 1:
        estimate = ppi_mean(y, f, rest)
        eligible = len(detector)
        out["corrected"] = {
            "estimate": estimate.estimate * eligible,
            "ci_low": max(0.0, estimate.ci[0] * eligible),
            "ci_high": estimate.ci[1] * eligible,
            "eligible_turns": eligible,
            "basis": "PPI++ over eligible turns (labels assumed a uniform random sample of them)",
        }
    return out
