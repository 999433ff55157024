"""Per-turn judging of a conversation on top of the shared judge (:mod:`trustmh.scoring.judge`).

Each judged turn is one judge call: the context is the conversation up to that turn's user
message, the response under judgement is the assistant's answer of that turn (fenced by the
judge layer, like every judged text). With several judges bound each turn is one panel
judgement (:mod:`trustmh.scoring.panel`). Turns are judged concurrently; inspect bounds the calls
by the judge model's connection limit. Verdicts are attached to their turn in the score's
metadata (``turns``), so the log shows, turn by turn, what the judge said.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from trustmh.conversation.record import Turn, transcript_text
from trustmh.scoring.panel import judge_model, judge_panel
from trustmh.scoring.rubric import JudgeResult, PanelResult, Rubric


@dataclass
class TurnVerdicts:
    """The judge's verdict per judged turn; ``None`` for a turn whose verdict stayed unparsed."""

    rubric: Rubric
    by_turn: dict[int, dict[str, Any] | None]
    results: Mapping[int, JudgeResult]
    judge: str

    def field(self, name: str) -> dict[int, Any]:
        """``{turn: value}`` of one verdict field (``None`` where unparsed)."""
        return {turn: (None if verdict is None else verdict[name]) for turn, verdict in self.by_turn.items()}

    @property
    def unparsed_turns(self) -> int:
        return sum(verdict is None for verdict in self.by_turn.values())

    def metadata(self) -> list[dict[str, Any]]:
        """One entry per judged turn: its verdict fields, attempts, and the error if unparsed."""
        rows = []
        for turn in sorted(self.by_turn):
            result = self.results[turn]
            row: dict[str, Any] = {"turn": turn, "unparsed": result.verdict is None, "attempts": result.attempts}
            row.update(result.fields(self.rubric))
            if result.verdict is None:
                row["judge_error"] = result.error
            rows.append(row)
        return rows


async def judge_turns(
    rubric: Rubric,
    turns: list[Turn],
    judged: Iterable[int],
    preamble: str = "",
    context_of: Callable[[int], str] | None = None,
) -> TurnVerdicts | None:
    """Judge the assistant's answer at each turn number in ``judged``; ``None`` with no judge bound.

    ``preamble`` (e.g. the case's harm type) is put before the transcript in the context.
    ``context_of(turn)`` replaces the context altogether: a verbatim rubric's complete upstream
    prompt for that turn (:mod:`trustmh.scoring.verbatim`).
    """
    if judge_model() is None:
        return None
    by_number = {turn.number: turn for turn in turns}
    numbers = [number for number in judged if number in by_number]

    async def one(number: int) -> PanelResult | None:
        if context_of is not None:
            return await judge_panel(rubric, context_of(number), by_number[number].assistant)
        context = transcript_text(turns, number)
        if preamble:
            context = f"{preamble.strip()}\n\n{context}"
        return await judge_panel(rubric, context, by_number[number].assistant)

    asked = dict(zip(numbers, await asyncio.gather(*(one(n) for n in numbers)), strict=True))
    results = {number: result for number, result in asked.items() if result is not None}
    if len(results) < len(asked):  # every judge left out as the model's own family (--exclude-self)
        return None
    return TurnVerdicts(
        rubric=rubric,
        by_turn={number: result.verdict for number, result in results.items()},
        results=results,
        judge=next((r.judge_name for r in results.values()), str(judge_model())),
    )


async def judge_conversation(rubric: Rubric, turns: list[Turn], preamble: str = "") -> JudgeResult | None:
    """One verdict on the whole conversation (e.g. VERA-style dimensions); ``None`` with no judge.

    The context is every turn but the last answer; the response under judgement is the last answer,
    and the rubric's instructions say the whole conversation is rated.
    """
    if judge_model() is None or not turns:
        return None
    context = transcript_text(turns, turns[-1].number)
    if preamble:
        context = f"{preamble.strip()}\n\n{context}"
    return await judge_panel(rubric, context, turns[-1].assistant)


def merge_turn_rows(verdicts: list[TurnVerdicts]) -> list[dict[str, Any]]:
    """One row per judged turn with every verdict that turn received, for the score's metadata.

    Attempts and judge errors are named after the rubric (``<rubric>_attempts``); ``unparsed`` is
    true when any of the turn's verdicts stayed unparsed.
    """
    rows: dict[int, dict[str, Any]] = {}
    for judged in verdicts:
        for row in judged.metadata():
            merged = rows.setdefault(row["turn"], {"turn": row["turn"], "unparsed": False})
            merged["unparsed"] = merged["unparsed"] or row["unparsed"]
            for key, value in row.items():
                if key in ("attempts", "judge_error"):
                    merged[f"{judged.rubric.name}_{key}"] = value
                elif key not in ("turn", "unparsed"):
                    merged[key] = value
    return [rows[turn] for turn in sorted(rows)]
