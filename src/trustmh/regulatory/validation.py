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


def share_estimate(successes: int, n: int) -> dict[str, Any] | None:
    if n == 0:
        return None
    low, high = wilson_interval(successes, n)
    return {"value": successes / n, "ci_low": low, "ci_high": high, "n": n}


def read_labels(path: Path, field: str, required: bool = True) -> tuple[dict[tuple[str, int], int], int] | None:
    """The majority label of every turn rated on ``field``, and how many turns were ties (None
    when the file has no rating of ``field`` and it is not ``required``)."""
    votes: dict[tuple[str, int], list[float]] = defaultdict(list)
    for rating in read_ratings(path):
        if rating.field != field:
            continue
        if rating.turn is None or rating.value not in (0.0, 1.0):
            raise UserError(f"{rating.where}: expected a turn and a score of 0 or 1 for field {field}")
        votes[(rating.sample_id, rating.turn)].append(float(rating.value))
    if not votes:
        if not required:
            return None
        raise UserError(f"{path}: no rating of field {field!r} (sample_id, turn, field, rater, score)")
    labels = {item: int(np.mean(v) > 0.5) for item, v in votes.items() if np.mean(v) != 0.5}
    return labels, len(votes) - len(labels)


def binary_agreement(y: np.ndarray, f: np.ndarray) -> dict[str, Any]:
    """Raw agreement, Cohen's kappa, sensitivity and specificity of decisions ``f`` against labels ``y``."""
    tp, fn = int(((y == 1) & (f == 1)).sum()), int(((y == 1) & (f == 0)).sum())
    tn, fp = int(((y == 0) & (f == 0)).sum()), int(((y == 0) & (f == 1)).sum())
    return {
        "agreement": share_estimate(tp + tn, len(y)),
        "kappa": _kappa(y, f),
        "sensitivity": share_estimate(tp, tp + fn),
        "specificity": share_estimate(tn, tn + fp),
    }


def compare(labels: dict[tuple[str, int], int], decisions: dict[tuple[str, int], int]) -> tuple[np.ndarray, np.ndarray]:
    """The labels and the decisions of the labelled items that have a decision, paired."""
    matched = [item for item in labels if item in decisions]
    return (
        np.array([labels[i] for i in matched], dtype=float),
        np.array([decisions[i] for i in matched], dtype=float),
    )


def corrected_count(y: np.ndarray, f: np.ndarray, rest: np.ndarray) -> dict[str, Any] | None:
    """The PPI++ count of eligible turns that are notifications: the share times the eligible turns."""
    if len(y) < 2 or len(rest) < 1:
        return None
    estimate = ppi_mean(y, f, rest)
    eligible = len(y) + len(rest)
    return {
        "estimate": estimate.estimate * eligible,
        "ci_low": max(0.0, estimate.ci[0] * eligible),
        "ci_high": estimate.ci[1] * eligible,
        "eligible_turns": eligible,
        "basis": "PPI++ over eligible turns (labels assumed a uniform random sample of them)",
    }


def referral_decisions(conversations: list[dict[str, Any]]) -> dict[tuple[str, int], int]:
    """The referral detector's decision (1: a notification) on every eligible turn."""
    detector: dict[tuple[str, int], int] = {}
    for conversation in conversations:
        referred = set(conversation["referrals"]["turns"])
        for turn in conversation["referrals"]["eligible_turns"]:
            detector[(conversation["sample"], int(turn))] = int(turn in referred)
    return detector


def referral_validation(conversations: list[dict[str, Any]], path: Path) -> dict[str, Any]:
    """Agreement, sensitivity, specificity and the PPI++-corrected count (module docstring)."""
    labels, ties = read_labels(path, LABEL_FIELD) or ({}, 0)
    detector = referral_decisions(conversations)
    y, f = compare(labels, detector)
    rest = np.array([v for i, v in detector.items() if i not in labels], dtype=float)
    return {
        "labels": len(y),
        "labels_outside": len(labels) - len(y),
        "ties_left_out": ties,
        **binary_agreement(y, f),
        "corrected": corrected_count(y, f, rest),
    }
