"""Out-of-scope replies (Illinois, 225 ILCS 155/20): the phrase detector's count beside the judge's.

Per conversation, the detector flags a reply that claims to be therapy or a therapist, states a
diagnosis or sets out a treatment plan (the union of the three ``scope_*`` checks); with a judge
the audit also asked the judged scope question of every turn
(:mod:`trustmh.audit.statutes.judged`). :func:`scope_value` reports both over the period's
conversations: conversations with a flagged reply among those checked, with its Wilson 95% CI.
A conversation whose judged verdict stayed unparsed is counted as unparsed, never as in scope.

Against clinician labels (field ``out_of_scope``, one per turn, 1 = the reply is out of scope),
:func:`scope_validation` gives each of the detector and the judge its agreement, kappa,
sensitivity and specificity on the labelled turns it decided.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from trustmh.audit.statutes.checks import COMPLIANT, VIOLATION
from trustmh.audit.statutes.judged import JUDGED_SCOPE_KEY, SCOPE_FIELD
from trustmh.regulatory.tally import CountedElsewhere, violation_share
from trustmh.regulatory.validation import binary_agreement, compare, read_labels

SCOPE_CHECKS = ("scope_therapy_claim", "scope_diagnosis", "scope_treatment_plan")
NOT_JUDGED = "not checked by a judge"


def detector_turns(conversation: dict[str, Any]) -> set[int] | None:
    """The turns the detector found out of scope; None when the checks did not run on a reply."""
    results = [conversation["checks"].get(name) for name in SCOPE_CHECKS]
    if any(r is None or r["status"] not in (COMPLIANT, VIOLATION) for r in results):
        return None
    return {int(turn) for r in results if r is not None for turn in r["turns"]}


def scope_value(
    measure: str, conversations: list[dict[str, Any]], passes: CountedElsewhere | None = None
) -> dict[str, Any]:
    """The detector's and the judge's out-of-scope counts (module docstring).

    ``passes``: detector passes' counts (:class:`.pass_evidence.PassCounts`), added to the
    detector's conversations; a pass keeps no turn numbers, so its turns are not counted
    (``turns_flagged`` is then None) and it was never judged.
    """
    detected = {id(c): detector_turns(c) for c in conversations}
    checked = [turns for turns in detected.values() if turns is not None]
    extra_checked = passes.scope_checked if passes is not None else 0
    extra_flagged = passes.scope_flagged if passes is not None else 0
    detector_checked = len(checked) + extra_checked
    detector_flagged = sum(bool(turns) for turns in checked) + extra_flagged
    judged = [c for c in conversations if c.get(JUDGED_SCOPE_KEY)]
    verdicts = {id(c): c[JUDGED_SCOPE_KEY]["verdict"] for c in judged}
    parsed = [v for v in verdicts.values() if v is not None]
    judge = None
    if judged:
        judge = {
            "conversations_judged": len(parsed),
            "conversations_with_violation": sum(parsed),
            "turns_flagged": sum(len(c[JUDGED_SCOPE_KEY]["turns"]) for c in judged),
            **violation_share(sum(parsed), len(parsed)),
            "unparsed_conversations": len(judged) - len(parsed),
            "unparsed_turns": sum(len(c[JUDGED_SCOPE_KEY]["unparsed_turns"]) for c in judged),
            "not_judged_conversations": len(conversations)
            - len(judged)
            + (passes.in_period if passes is not None else 0),
        }
    both = [(bool(detected[k]), bool(v)) for k, v in verdicts.items() if v is not None and detected[k] is not None]
    return {
        "measure": measure,
        "detector": {
            "conversations_checked": detector_checked,
            "conversations_with_violation": detector_flagged,
            "turns_flagged": sum(len(turns) for turns in checked) if not extra_checked else None,
            **violation_share(detector_flagged, detector_checked),
        },
        "judge": judge,
        "judge_status": "judged" if judged else NOT_JUDGED,
        "detector_vs_judge": None
        if not both
        else {
            "conversations": len(both),
            "both": both.count((True, True)),
            "detector_only": both.count((True, False)),
            "judge_only": both.count((False, True)),
            "neither": both.count((False, False)),
        },
    }


Decisions = dict[tuple[str, int], int]


def scope_decisions(conversations: list[dict[str, Any]]) -> tuple[Decisions, Decisions, set[tuple[str, int]]]:
    """Per ``(conversation, turn)``: the detector's decision on every reply turn, the judge's on
    every judged turn whose verdict parsed, and the judged turns whose verdict did not."""
    detector: Decisions = {}
    judge: Decisions = {}
    unparsed_turns: set[tuple[str, int]] = set()
    for conversation in conversations:
        sample, turns = conversation["sample"], detector_turns(conversation)
        if turns is not None:
            for turn in range(1, int(conversation.get("reply_turns") or 0) + 1):
                detector[(sample, turn)] = int(turn in turns)
        judged = conversation.get(JUDGED_SCOPE_KEY)
        if judged:
            flagged, unparsed = set(judged["turns"]), set(judged["unparsed_turns"])
            unparsed_turns.update((sample, int(turn)) for turn in unparsed)
            for turn in judged["judged_turns"]:
                if turn not in unparsed:
                    judge[(sample, int(turn))] = int(turn in flagged)
    return detector, judge, unparsed_turns


def scope_validation(conversations: list[dict[str, Any]], path: Path) -> dict[str, Any]:
    """The detector's and the judge's agreement with clinician labels of ``out_of_scope`` turns."""
    labels, ties = read_labels(path, SCOPE_FIELD) or ({}, 0)
    detector, judge, unparsed = scope_decisions(conversations)
    y, f = compare(labels, detector)
    judged_y, judged_f = compare(labels, judge)
    judge_stats = {"labels": len(judged_y), "unparsed_left_out": len(unparsed & set(labels))}
    return {
        "source": "clinician labels",
        "labels": len(y),
        "labels_outside_reply_turns": len(labels) - len(y),
        "ties_left_out": ties,
        "detector": binary_agreement(y, f) if len(y) else None,
        "judge": None if not (judge or unparsed) else {**judge_stats, **binary_agreement(judged_y, judged_f)},
    }
