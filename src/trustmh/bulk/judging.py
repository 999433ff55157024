"""``trustmh judge``: the seven-attribute MentalAlign judge over a wide responses file.

Output is the MentalAlign judge-file format: ``ConvID, context, judge_response_<key>``,
each cell the JSON of the seven scores plus Overall and Explanation, so our judges and the
released ones go through the same analysis. A verdict still unusable after ``max_attempts`` asks is written as an
empty cell and counted (and listed in the summary sidecar), never dropped silently.

A judge whose first verdicts are all unusable is stopped by the rule every judge shares
(:class:`~trustmh.scoring.verdict.JudgeWatch`): no further ask is sent and :func:`judge_table`
raises one line naming the judge and the fix; nothing is written (the replies so far are cached).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from trustmh.bulk.backends import ModelSpec
from trustmh.bulk.engine import BulkEngine
from trustmh.bulk.request import ChatRequest, GenerationParams
from trustmh.bulk.session import RunReport, RunSettings, run_jobs
from trustmh.bulk.tables import Table
from trustmh.core.errors import UserError
from trustmh.mentalalign.rubric import MENTALALIGN_RUBRIC
from trustmh.mentalalign.schema import (
    CONTEXT_COLUMN,
    HUMAN_PREFIX,
    ID_COLUMN,
    JUDGE_PREFIX,
    column,
    response_column,
    response_key,
)
from trustmh.scoring.judge import DEFAULT_MAX_ATTEMPTS
from trustmh.scoring.judge_prompt import judge_prompt
from trustmh.scoring.rubric import Rubric
from trustmh.scoring.verdict import JudgeCallFailed, JudgeWatch, ask_for_verdict

NOT_RESPONSE_COLUMNS = frozenset({ID_COLUMN, CONTEXT_COLUMN, "id", "ID"})
# Ratings, not responses: a conversations file taken from MentalAlign-70k (human_judge.xlsx)
# keeps its human_response_* columns through trustmh generate.
RATING_PREFIXES = (f"{HUMAN_PREFIX}_", f"{JUDGE_PREFIX}_")
JUDGE_PARAMS = GenerationParams(max_tokens=512, temperature=0.0, seed=0)


def judge_params(rubric: Rubric) -> GenerationParams:
    """trustmh's judge settings, or upstream's for a verbatim rubric (no seed: upstream sends none)."""
    verbatim = rubric.verbatim
    if verbatim is None:
        return JUDGE_PARAMS
    return GenerationParams(
        max_tokens=verbatim.max_tokens or JUDGE_PARAMS.max_tokens,
        temperature=JUDGE_PARAMS.temperature if verbatim.temperature is None else verbatim.temperature,
        seed=None,
    )


def select_keys(table: Table, keys: Sequence[str]) -> list[str]:
    """The response columns to judge, as MentalAlign keys (``response`` is ``original``)."""
    if not keys:
        chosen = [
            response_key(c)
            for c in table.columns
            if c not in NOT_RESPONSE_COLUMNS and not c.startswith(RATING_PREFIXES)
        ]
        if not chosen:
            raise UserError(f"{table.path}: no response columns to judge (only {', '.join(table.columns)})")
        return chosen
    for key in keys:
        if response_column(key) not in table.columns:
            raise UserError(
                f"{key!r}: {table.path} has no column {response_column(key)!r} (columns: {', '.join(table.columns)})",
                argument="key",
            )
    return list(dict.fromkeys(keys))


@dataclass(frozen=True)
class JudgeItem:
    row: int
    key: str
    context: str
    response: str


@dataclass(frozen=True)
class JudgeOutcome:
    verdict: dict[str, int | str] | None
    status: str  # "judged", "unparsed", "call_failed", "empty_response", "stopped" (the judge's watch)
    attempts: int = 0
    error: str | None = None
    last_reply: str | None = None


async def judge_one(
    engine: BulkEngine,
    judge: ModelSpec,
    item: JudgeItem,
    rubric: Rubric,
    max_attempts: int,
    watch: JudgeWatch | None = None,
) -> JudgeOutcome:
    """Ask for a verdict through the engine, with the re-asking loop (and early stop) every judge shares."""
    if not item.response.strip():
        return JudgeOutcome(None, "empty_response")

    params = judge_params(rubric)

    async def ask(messages: tuple[dict[str, str], ...]) -> str:
        outcome = await engine.complete(ChatRequest(judge.spec, messages, params))
        if outcome.completion is None:
            raise JudgeCallFailed(outcome.error or "the call failed")
        return outcome.completion.text

    prompt = judge_prompt(rubric, item.context, item.response)
    asked = await ask_for_verdict(ask, rubric, prompt, (item.context, item.response), max_attempts, watch)
    if asked.stopped:
        return JudgeOutcome(None, "stopped", asked.attempts)
    if asked.verdict is not None:
        return JudgeOutcome(asked.verdict, "judged", asked.attempts)
    if asked.call_failed:
        return JudgeOutcome(None, "call_failed", asked.attempts, asked.error)
    last_reply = asked.replies[-1][:500] if asked.replies else None
    return JudgeOutcome(None, "unparsed", asked.attempts, asked.error, last_reply)


@dataclass
class JudgeResult:
    columns: list[str]
    rows: list[dict[str, str]]
    status_counts: Counter[str]
    problems: list[dict[str, object]] = field(default_factory=list)
    report: RunReport | None = None


def plan_judging(table: Table, keys: Sequence[str]) -> list[JudgeItem]:
    return [
        JudgeItem(index, key, row.get(CONTEXT_COLUMN, ""), row.get(response_column(key), ""))
        for index, row in enumerate(table.rows)
        for key in keys
    ]


def conversation_ids(table: Table) -> list[str]:
    """``ConvID`` when the file has it, else the 1-based row number."""
    if ID_COLUMN in table.columns:
        return [row[ID_COLUMN] for row in table.rows]
    return [str(index) for index in range(1, len(table.rows) + 1)]


def judge_table(
    table: Table,
    keys: Sequence[str],
    judge: ModelSpec,
    settings: RunSettings,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    rubric: Rubric = MENTALALIGN_RUBRIC,
) -> JudgeResult:
    items = plan_judging(table, keys)
    watch = JudgeWatch(judge.spec, fix="--judge")
    if rubric.verbatim is not None:  # upstream asks once
        max_attempts = rubric.verbatim.max_attempts

    async def job(engine: BulkEngine, item: JudgeItem) -> JudgeOutcome:
        return await judge_one(engine, judge, item, rubric, max_attempts, watch)

    report = run_jobs([judge], settings, items, job)
    if watch.stopped:
        raise watch.error(max_attempts)
    ids = conversation_ids(table)
    columns = [ID_COLUMN, CONTEXT_COLUMN] + [column(JUDGE_PREFIX, key) for key in keys]
    rows = [{ID_COLUMN: ids[i], CONTEXT_COLUMN: row.get(CONTEXT_COLUMN, "")} for i, row in enumerate(table.rows)]
    result = JudgeResult(columns, rows, Counter(), report=report)
    for item, outcome in zip(items, report.results, strict=True):
        cell = "" if outcome.verdict is None else json.dumps(outcome.verdict)
        rows[item.row][column(JUDGE_PREFIX, item.key)] = cell
        result.status_counts[outcome.status] += 1
        if outcome.status != "judged":
            result.problems.append(
                {
                    ID_COLUMN: ids[item.row],
                    "key": item.key,
                    "where": table.where[item.row],
                    "status": outcome.status,
                    "attempts": outcome.attempts,
                    "error": outcome.error,
                    "last_reply": outcome.last_reply,
                }
            )
    return result
