"""``trustmh generate``: a response from each model for each MentalBench conversation.

Input and output are the MentalBench-100k wide format: ``context``, ``response`` (the
human reply) and one column per model. Each ``--model`` adds (or fills) one column, named
by the model or by ``COLUMN=MODEL``. Each context is sent inside MentalBench's generation
prompt (:data:`trustmh.mentalalign.rubric.GENERATION_PROMPT`) as the only message, unless
the caller gives another template or a system prompt.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from trustmh.bulk.backends import ModelSpec, parse_model
from trustmh.bulk.engine import BulkEngine
from trustmh.bulk.request import ChatOutcome, ChatRequest, GenerationParams
from trustmh.bulk.session import RunReport, RunSettings, run_jobs
from trustmh.bulk.tables import Table, read_table
from trustmh.core.errors import DataFormatError, UserError
from trustmh.mentalalign.rubric import GENERATION_PROMPT, generation_prompt
from trustmh.mentalalign.schema import CONTEXT_COLUMN, HUMAN_RESPONSE_COLUMN, ID_COLUMN


@dataclass(frozen=True)
class ModelColumn:
    column: str
    model: ModelSpec


@dataclass(frozen=True)
class GenerationItem:
    row: int
    target: ModelColumn
    request: ChatRequest


@dataclass
class GenerationResult:
    columns: list[str]
    rows: list[dict[str, str]]
    failures: list[dict[str, str]]
    report: RunReport
    empty_replies: list[dict[str, str]] = field(default_factory=list)  # the model answered "", not a failure


def parse_model_columns(arguments: Sequence[str]) -> list[ModelColumn]:
    """Model arguments ``SPEC`` or ``COLUMN=SPEC`` (``trustmh generate --model``); an existing column is refilled."""
    targets: list[ModelColumn] = []
    for argument in arguments:
        column, sep, spec = argument.partition("=")
        if not sep:
            column, spec = "", argument
        elif not column.strip():
            raise UserError(f"{argument!r}: empty column name", argument="models")
        model = parse_model(spec.strip())
        targets.append(ModelColumn(column.strip() or model.default_column, model))
    names = [t.column for t in targets]
    for target in targets:
        if names.count(target.column) > 1:
            raise UserError(f"column {target.column!r} is given twice", argument="models")
        if target.column in (CONTEXT_COLUMN, HUMAN_RESPONSE_COLUMN, ID_COLUMN):
            raise UserError(f"column {target.column!r} is reserved; name it with COLUMN=MODEL", argument="models")
    return targets


def conversation_messages(
    context: str, system_prompt: str = "", template: str = GENERATION_PROMPT
) -> tuple[dict[str, str], ...]:
    """An optional system message, then the user message: ``template`` with the context in it."""
    messages = [{"role": "system", "content": system_prompt}] if system_prompt else []
    return tuple(messages + [{"role": "user", "content": generation_prompt(context, template)}])


def plan_generation(
    table: Table,
    targets: Sequence[ModelColumn],
    params: GenerationParams,
    system_prompt: str = "",
    template: str = GENERATION_PROMPT,
) -> list[GenerationItem]:
    items: list[GenerationItem] = []
    for index, row in enumerate(table.rows):
        context = row.get(CONTEXT_COLUMN, "")
        if not context.strip():
            raise DataFormatError(table.path, f"{table.where[index]}, column {CONTEXT_COLUMN!r}", "empty context")
        messages = conversation_messages(context, system_prompt, template)
        for target in targets:
            items.append(GenerationItem(index, target, ChatRequest(target.model.spec, messages, params)))
    return items


async def _generate_one(engine: BulkEngine, item: GenerationItem) -> ChatOutcome:
    return await engine.complete(item.request)


def generate(
    table: Table,
    targets: Sequence[ModelColumn],
    params: GenerationParams,
    system_prompt: str,
    settings: RunSettings,
    template: str = GENERATION_PROMPT,
) -> GenerationResult:
    items = plan_generation(table, targets, params, system_prompt, template)
    report = run_jobs([t.model for t in targets], settings, items, _generate_one)
    rows = [dict(row) for row in table.rows]
    failures: list[dict[str, str]] = []
    empty: list[dict[str, str]] = []
    for item, outcome in zip(items, report.results, strict=True):
        # A failed call leaves the cell empty; it is listed in the summary, never dropped.
        rows[item.row][item.target.column] = outcome.text or ""
        if outcome.completion is None:
            failures.append(
                {"where": table.where[item.row], "column": item.target.column, "reason": outcome.error or ""}
            )
        elif not outcome.completion.text:
            empty.append({"where": table.where[item.row], "column": item.target.column})
    columns = list(table.columns) + [t.column for t in targets if t.column not in table.columns]
    return GenerationResult(columns, rows, failures, report, empty)


def load_conversations(path: Path) -> Table:
    """The conversations file; a ``ConvID`` given twice is an error (replies would be joined to the wrong row)."""
    table = read_table(path, [CONTEXT_COLUMN])
    if ID_COLUMN in table.columns:
        first_seen: dict[str, str] = {}
        for row, where in zip(table.rows, table.where, strict=True):
            conversation_id = row.get(ID_COLUMN, "").strip()
            if not conversation_id:
                continue
            if conversation_id in first_seen:
                raise DataFormatError(
                    path,
                    f"{where}, field '{ID_COLUMN}'",
                    f"conversation id {conversation_id!r} is given twice (first at {first_seen[conversation_id]}); "
                    "expected one row per conversation",
                )
            first_seen[conversation_id] = where
    return table
