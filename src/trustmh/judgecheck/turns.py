"""Per-turn verdicts of the conversation tasks, and human ratings of single turns.

The conversation scorers keep the judge's verdicts turn by turn in the score metadata: ``turns``
(one row per judged turn: ``{"turn": 5, "dcs": 2, "unparsed": false, "psychosis_dcs_attempts": 1}``)
and, for MindEval, ``checkpoints`` (the criteria at the half-way and final turn). A row's keys other
than its bookkeeping (turn, unparsed, checkpoint, attempts, judge errors) are *per-turn fields*;
a key present with ``None`` is a verdict that stayed unparsed, a key absent is a turn the judge
was not asked about (e.g. DCS is judged from turn 4).

The task declares in its metadata (:data:`trustmh.conversation.scores.DERIVED_FIELDS_KEY`) which
per-conversation score fields each per-turn field is folded into (``dcs`` -> ``dcs``, ``validated``,
``first_validation_turn``, ``dcs_phase2`` ...), so a per-turn validation names the metrics built from it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from trustmh.conversation.scores import DERIVED_FIELDS_KEY
from trustmh.core.errors import UserError
from trustmh.judgecheck.ratings import Rating, Value

ROW_KEYS = ("turns", "checkpoints")  # score metadata keys holding per-turn rows
BOOKKEEPING = ("turn", "unparsed", "checkpoint")
CONVERSATION_KEY = "trustmh_conversation"  # the sample store key of the conversation record

TurnValues = dict[tuple[str, int, str], "Value | None"]


def is_bookkeeping(key: str) -> bool:
    return key in BOOKKEEPING or key.endswith("attempts") or key.endswith("judge_error")


def turn_rows(scores: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every per-turn row of a sample's scores (rows without an integer ``turn`` are skipped)."""
    rows = []
    for score in scores.values():
        for key in ROW_KEYS:
            found = (score.metadata or {}).get(key)
            if isinstance(found, list):
                rows += [r for r in found if isinstance(r, dict) and isinstance(r.get("turn"), int)]
    return rows


def sample_turns(sample_id: str, rows: Iterable[dict[str, Any]], value: Any) -> TurnValues:
    """``{(sample, turn, field): value}`` of one sample's rows; ``value`` converts a raw verdict."""
    return {
        (sample_id, row["turn"], key): value(raw) for row in rows for key, raw in row.items() if not is_bookkeeping(key)
    }


def turn_count(store: Mapping[str, Any] | None, rows: list[dict[str, Any]]) -> int:
    """How many turns the sample's transcript has (the conversation record; else its last judged turn)."""
    record = (store or {}).get(CONVERSATION_KEY)
    if isinstance(record, dict) and isinstance(record.get("turns"), list):
        return len(record["turns"])
    return max((row["turn"] for row in rows), default=0)


def derived_metrics(metadata: Mapping[str, Any] | None, metric_fields: Mapping[str, list[str]]) -> dict[str, list[str]]:
    """``{per-turn field: [metrics]}``: the metrics reading the score fields the task builds from it."""
    declared = (metadata or {}).get(DERIVED_FIELDS_KEY)
    out: dict[str, list[str]] = {}
    if not isinstance(declared, dict):
        return out
    for turn_field, score_fields in declared.items():
        names = out.setdefault(str(turn_field), [])
        for score_field in score_fields if isinstance(score_fields, list) else []:
            names += [m for m in metric_fields.get(score_field, []) if m not in names]
    return out


def _turn_error(rating: Rating, expected: str) -> UserError:
    return UserError(f"{rating.where}, column 'turn': {expected}")


def check_turn_ratings(
    name: str,
    ratings: list[Rating],
    turn_values: TurnValues,
    turn_counts: Mapping[str, int],
    sample_fields: set[str],
    source: str,
) -> None:
    """A field is rated either per turn or per sample, and each rated turn has a verdict of it.

    ``turn_counts``: the number of turns of each judged conversation of the source. A sample not in
    it (not in the source, or a conversation that errored before it was judged) is left to be
    counted as not judged, as for whole samples.
    """
    per_turn = {f for _, _, f in turn_values}
    whole = next((r for r in ratings if r.turn is None), None)
    turned = next((r for r in ratings if r.turn is not None), None)
    if whole is not None and turned is not None:
        raise _turn_error(
            whole,
            f"field {name!r} is rated per turn elsewhere ({turned.where}); give the turn on every row of it, "
            "or on none (a per-turn verdict and a whole-conversation score are different things)",
        )
    if whole is not None:
        if name in per_turn and name not in sample_fields:
            raise _turn_error(whole, f"field {name!r} is judged per turn in {source}; expected the turn number")
        return
    if name not in per_turn:
        raise _turn_error(
            turned,  # type: ignore[arg-type]
            f"field {name!r} is not judged per turn in {source} "
            f"(per-turn fields: {', '.join(sorted(per_turn)) or 'none'}); leave the turn empty",
        )
    judged: dict[str, list[int]] = {}
    for sample, turn, field in turn_values:
        if field == name:
            judged.setdefault(sample, []).append(turn)
    for rating in ratings:
        sample, rated_turn = rating.sample_id, rating.turn
        count = turn_counts.get(sample)
        if count is None or rated_turn is None:  # not a judged conversation of the source: counted as not judged
            continue
        if not 1 <= rated_turn <= count:
            raise _turn_error(rating, f"sample {sample!r} has {count} turns; found turn {rated_turn}")
        if rated_turn not in judged.get(sample, []):
            turns = ", ".join(str(t) for t in sorted(judged.get(sample, []))) or "no turn"
            raise _turn_error(
                rating, f"sample {sample!r} has no {name!r} verdict at turn {rated_turn} (judged at {turns})"
            )
