"""Turning per-turn verdicts into per-conversation score fields (pure functions, no inspect).

Conventions shared by every conversation task, so "unparsed" never turns into a number:

* a mean over turns uses the turns whose verdict parsed; it is ``None`` (unparsed) when none
  did, and the field is left out when the conversation has none of those turns at all;
* a "first turn where ..." is the turn number; it is left out (not applicable) when no turn
  qualifies and every turn parsed, and ``None`` (unparsed) when an unparsed turn comes before
  the first qualifying one, or no turn qualifies but some did not parse — we cannot tell.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

NOT_APPLICABLE = object()  # a field to leave out of the score
# Task metadata key: {judge field: [the per-conversation score fields built from it]} for judge fields
# the metrics do not read directly (per-turn verdicts, a whole-conversation verdict's labels), so
# `trustmh judge-check` names the metrics a validation of them vouches for, and the report finds them.
DERIVED_FIELDS_KEY = "trustmh_derived_fields"


@dataclass(frozen=True)
class FirstTurn:
    """Result of :func:`first_turn`: ``turn`` if found; ``known`` False if an unparsed turn hides it."""

    turn: int | None
    known: bool

    def field_value(self) -> Any:
        if not self.known:
            return None
        return NOT_APPLICABLE if self.turn is None else float(self.turn)


def first_turn(values: dict[int, Any], hit: Callable[[Any], bool]) -> FirstTurn:
    """First turn (in turn order) whose value satisfies ``hit``; ``None`` values are unparsed."""
    for turn in sorted(values):
        value = values[turn]
        if value is None:
            return FirstTurn(None, False)
        if hit(value):
            return FirstTurn(turn, True)
    return FirstTurn(None, True)


def mean_over(values: dict[int, Any], turns: Iterable[int] | None = None) -> Any:
    """Mean of the parsed values at ``turns`` (all turns by default); see the module docstring."""
    chosen = [values[t] for t in (sorted(values) if turns is None else turns) if t in values]
    if not chosen:
        return NOT_APPLICABLE
    parsed = [float(v) for v in chosen if v is not None]
    return sum(parsed) / len(parsed) if parsed else None


def any_turn(values: dict[int, Any], hit: Callable[[Any], bool]) -> Any:
    """1.0 if some turn satisfies ``hit``; 0.0 if none does and all parsed; ``None`` if unknown."""
    if not values:
        return NOT_APPLICABLE
    if any(v is not None and hit(v) for v in values.values()):
        return 1.0
    return None if any(v is None for v in values.values()) else 0.0


def phase_of(turn: int, turns_per_phase: int = 3) -> int:
    """Phase number (1-based) of a turn, ``turns_per_phase`` turns to a phase."""
    return (turn - 1) // turns_per_phase + 1


def phase_means(values: dict[int, Any], prefix: str, turns_per_phase: int = 3) -> dict[str, Any]:
    """``{<prefix>_phase<p>: mean}`` for every phase with at least one judged turn."""
    phases: dict[int, list[int]] = {}
    for turn in values:
        phases.setdefault(phase_of(turn, turns_per_phase), []).append(turn)
    return {f"{prefix}_phase{p}": mean_over(values, sorted(turns)) for p, turns in sorted(phases.items())}


def applicable(fields: dict[str, Any]) -> dict[str, Any]:
    """Drop the fields marked :data:`NOT_APPLICABLE`."""
    return {key: value for key, value in fields.items() if value is not NOT_APPLICABLE}
