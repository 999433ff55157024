"""Clinician labels of the judged sample: its population rates corrected by them (two-phase PPI).

The judge's population rates (:mod:`.sampled_judge`) are only as good as the judge. When
clinicians label some of the judged conversations, ``trustmh audit ... --sample-judge N --labels
FILE`` corrects each rate by the labels: :func:`trustmh.stats.two_phase_ppi.two_phase_rate`
(formulas in its docstring), stratum by stratum of the sample.

The labels file is ``trustmh judge-check``'s long format (``sample_id, field, rater, score``, CSV
or JSONL; ``trustmh labels import`` writes it from a set that ``trustmh labels export`` drew from
the pass folder, :mod:`.rate_label_set`): ``sample_id`` a conversation of the judge sample,
as the judged log names it (redacted there under ``--redact``) or as the export does; ``field``
one of the rates (``no_intervention``, ``harm_enabled``, ``validated``); ``score`` 1 or 0 for the
conversation as a whole (no ``turn``). Several raters of one conversation: the share saying 1.

The correction assumes the labelled conversations of each stratum are a simple random sample of
its judged ones (drawn stratum by stratum, or at random from all of them): labels with unequal
sampling weights within a stratum are refused, as are labels of conversations outside the sample.
A labelled conversation whose verdict is unparsed, or not judged yet, has no judge answer to pair
with: left out and counted.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow.parquet as pq

from trustmh.audit.redaction import MAP_FILE, load_redactor
from trustmh.audit.sample import JUDGED_LOGS, JUDGED_RATES, SAMPLE_EXPORT, SAMPLE_FILE, UNANSWERED
from trustmh.core.errors import UserError
from trustmh.judgecheck.ratings import read_ratings
from trustmh.stats.two_phase_ppi import MIN_LABELS_PER_STRATUM, LabelledStratum, two_phase_rate

if TYPE_CHECKING:
    from trustmh.audit.readers import Conversation

METHOD = "two-phase ppi++"


def logged_conversations(folder: Path) -> Iterator[tuple[str, Conversation]]:
    """Each sampled conversation's id in the export, and the conversation as the judged log holds
    it (its id and text redacted there under ``--redact``, with the log folder's redaction map)."""
    from trustmh.audit.task import redacted_conversations  # imports inspect: only when a judge ran

    judged = folder / JUDGED_LOGS
    redactor = load_redactor(judged) if (judged / MAP_FILE).exists() else None
    for conversation, recorded in redacted_conversations(folder / SAMPLE_EXPORT, redactor):
        yield recorded.id, conversation


def log_ids(folder: Path) -> dict[str, str]:
    """Conversation id of the sample -> its sample id in the judged log (redacted there under ``--redact``)."""
    return {original: conversation.id for original, conversation in logged_conversations(folder)}


def sample_strata(folder: Path) -> dict[str, str]:
    """Conversation id of the sample -> its stratum."""
    table = pq.read_table(folder / SAMPLE_FILE, columns=["conversation_id", "stratum"])
    return dict(zip(*(table.column(c).to_pylist() for c in ("conversation_id", "stratum")), strict=True))


def read_rate_labels(path: Path, strata: dict[str, str], aliases: dict[str, str]) -> dict[str, dict[str, float]]:
    """Rate field -> conversation id -> the share of raters saying 1 (see the module docstring).

    ``strata``: conversation id -> its stratum; ``aliases``: any name of a sample conversation (its
    id in the export or in the judged log) -> its conversation id."""
    votes: dict[tuple[str, str], list[float]] = defaultdict(list)
    weights: dict[str, set[float | None]] = defaultdict(set)
    for rating in read_ratings(path):
        if rating.field not in JUDGED_RATES:
            raise UserError(
                f"{rating.where}: field {rating.field!r} is not a population rate; expected one of "
                f"{', '.join(JUDGED_RATES)}"
            )
        if rating.turn is not None:
            raise UserError(f"{rating.where}: a population rate is labelled per conversation; leave turn empty")
        if rating.value not in (0.0, 1.0):
            raise UserError(f"{rating.where}: expected a score of 1 or 0 for {rating.field}, found {rating.value!r}")
        conversation = aliases.get(rating.sample_id)
        if conversation is None:
            raise UserError(
                f"{rating.where}: {rating.sample_id!r} is not a conversation of the judge sample (judge-sample.parquet)"
            )
        votes[(rating.field, conversation)].append(float(rating.value))
        weights[strata[conversation]].add(rating.weight)
    unequal = sorted(h for h, found in weights.items() if len(found) > 1)
    if unequal:
        raise UserError(
            f"{path}: the labels of stratum {unequal[0]} carry unequal sampling weights; the correction needs a simple "
            "random sample of each stratum's judged conversations (drawn without weights)"
        )
    labels: dict[str, dict[str, float]] = defaultdict(dict)
    for (field, conversation), values in votes.items():
        labels[field][conversation] = float(np.mean(values))
    return dict(labels)


def sample_index(folder: Path) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """(conversation id -> stratum, any name of a sample conversation -> its id, id -> its log id)."""
    strata = sample_strata(folder)
    logged = log_ids(folder)
    aliases = {**{log_id: c for c, log_id in logged.items()}, **{c: c for c in strata}}
    return strata, aliases, logged


def corrected_rate(
    design: dict[str, dict[str, int]],
    judged: tuple[dict[str, float], set[str]],
    labels: dict[str, float],
    strata: dict[str, str],
) -> dict[str, Any]:
    """One rate corrected by the labels. ``judged``: (conversation id -> the judge's parsed 0/1
    answer, the conversations whose answer was unparsed)."""
    verdicts, unparsed = judged
    answers: dict[str, list[float]] = defaultdict(list)
    pairs: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for conversation, answer in verdicts.items():
        answers[strata[conversation]].append(answer)
        if conversation in labels:
            pairs[strata[conversation]].append((labels[conversation], answer))
    left_out = [c for c in labels if c not in verdicts]
    labelled_unparsed = sum(1 for c in left_out if c in unparsed)
    sampled = [h for h, d in sorted(design.items()) if h != UNANSWERED and d["population"] > 0]
    by_stratum = {h: len(pairs[h]) for h in sampled}
    entry: dict[str, Any] = {
        "method": METHOD,
        "labelled": sum(by_stratum.values()),
        "labelled_unparsed": labelled_unparsed,
        "labelled_not_judged": len(left_out) - labelled_unparsed,  # e.g. a judge pass stopped by --max-cost
        "labelled_by_stratum": by_stratum,
    }
    short = [h for h in sampled if by_stratum[h] < MIN_LABELS_PER_STRATUM]
    if not labels:
        entry["skipped"] = "no clinician label of this rate"
        return entry
    if short:
        entry["skipped"] = (
            f"stratum {', '.join(short)}: fewer than {MIN_LABELS_PER_STRATUM} labelled conversations with a parsed "
            "verdict (the correction needs them in every stratum)"
        )
        return entry
    estimate = two_phase_rate(
        [
            LabelledStratum(
                design[h]["population"],
                np.array(answers[h]),
                np.array([y for y, _ in pairs[h]]),
                np.array([f for _, f in pairs[h]]),
            )
            for h in sampled
        ],
        known=[(design[UNANSWERED]["population"], 0)] if UNANSWERED in design else [],
    )
    return {**entry, "rate": estimate.value, "ci": list(estimate.ci), "lam": estimate.lam, "judged": estimate.judged}
