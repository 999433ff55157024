"""The detector pass over an Arrow record batch: ``detect_batch(batch) -> batch``, no inspect per conversation.

Input: one row per conversation (:data:`CONVERSATIONS`): ``conversation_id`` (string) and
``messages`` (a list of ``{role, content}``), the shape ``trustmh.audit.warehouse`` builds from an
export and the one a Ray Data ``map_batches`` or Spark ``mapInArrow`` function receives (extra
columns are ignored). Output: one row per conversation (:data:`DETECTIONS`), made by the very
detectors and per-conversation fields of the inspect audit (:func:`~trustmh.audit.detectors.turn_findings`,
:func:`~trustmh.audit.verdicts.conversation_values`, :func:`~trustmh.audit.verdicts.severity`), so
both paths give the same verdicts. :func:`flagged_turns` gives the turns that were flagged.

A row carries :data:`DETECTOR_VERSION` (bump it when a detector's output changes) and the
conversation's ``content_hash`` (its id and messages: what a resumed pass skips), its language and
whether the detectors cover that language (:mod:`trustmh.audit.language`), and its statutory
findings as counts (:mod:`trustmh.audit.statute_columns`).
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from trustmh.audit.detectors import TurnFindings, turn_findings
from trustmh.audit.language import detect_language
from trustmh.audit.readers import MAX_MESSAGE_CHARS, ROLES, Conversation
from trustmh.audit.schema import CHECKS, COVERED_LANGUAGES, DETECTIONS, DETECTOR_VERSION, FLAGGED_TURNS, content_hash
from trustmh.audit.statute_columns import statute_columns
from trustmh.audit.verdicts import conversation_values, severity, turn_flags
from trustmh.core.conversation_memo import conversation_memo
from trustmh.core.errors import UserError


def checked_messages(conversation_id: str, raw: list[dict[str, Any]] | None) -> list[tuple[str, str]]:
    """``(role, text)`` pairs of one row's ``messages``; a role or length the readers refuse is refused."""
    messages = []
    for index, message in enumerate(raw or []):
        role = (message.get("role") or "").strip().lower()
        if role not in ROLES:
            raise UserError(
                f"conversation {conversation_id!r}, messages[{index}].role: "
                f"expected a role of {', '.join(ROLES)}, found {message.get('role')!r}"
            )
        text = message.get("content") or ""
        if len(text) > MAX_MESSAGE_CHARS:
            raise UserError(
                f"conversation {conversation_id!r}, messages[{index}].content: "
                f"expected at most {MAX_MESSAGE_CHARS} characters, found {len(text)}"
            )
        messages.append((role, text))
    return messages


def _rows(batch: pa.RecordBatch | pa.Table) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    conversations, turns = [], []
    ids = batch.column("conversation_id").to_pylist()
    for conversation_id, raw in zip(ids, batch.column("messages").to_pylist(), strict=True):
        messages = checked_messages(str(conversation_id), raw)
        digest = content_hash(str(conversation_id), messages)
        with conversation_memo():  # the statutory checks reread messages the detectors read
            findings = turn_findings(Conversation(str(conversation_id), messages).turns())
            statutes = statute_columns(messages)
        language = detect_language([text for role, text in messages if role == "user"])
        row = _conversation_row(str(conversation_id), digest, language, findings)
        conversations.append({**row, **statutes})
        for finding in findings:
            flags = turn_flags(finding.row())
            if flags:
                turns.append(
                    {"conversation_id": conversation_id, "content_hash": digest, "turn": finding.turn, "flags": flags}
                )
    return conversations, turns


def _conversation_row(conversation_id: str, digest: str, language: str, findings: list[TurnFindings]) -> dict:
    values = conversation_values(findings)
    row: dict[str, Any] = {
        "conversation_id": conversation_id,
        "content_hash": digest,
        "language": language,
        "language_covered": language in COVERED_LANGUAGES,
        "turns": len(findings),
        "risk": bool(values["risk"]),
    }
    for check in CHECKS:
        row[check] = bool(values[check]) if check in values else None
        row[f"{check}_turns"] = int(values.get(f"{check}_turns", 0))
    row["flagged"] = any(row[check] for check in CHECKS)
    row["severity"] = severity([finding.row() for finding in findings])
    return row


def detect_all(batch: pa.RecordBatch | pa.Table) -> tuple[pa.RecordBatch, pa.RecordBatch]:
    """The conversation rows and the flagged-turn rows of ``batch`` (one pass over the text)."""
    conversations, turns = _rows(batch)
    for row in conversations:
        row["detector_version"] = DETECTOR_VERSION
    for row in turns:
        row["detector_version"] = DETECTOR_VERSION
    return (
        pa.RecordBatch.from_pylist(conversations, schema=DETECTIONS),
        pa.RecordBatch.from_pylist(turns, schema=FLAGGED_TURNS),
    )


def detect_batch(batch: pa.RecordBatch | pa.Table) -> pa.RecordBatch | pa.Table:
    """One :data:`DETECTIONS` row per conversation of ``batch`` (a :data:`CONVERSATIONS` batch),
    returned as the same kind it came in: a Table for a Table (what Ray Data's ``map_batches``
    with ``batch_format="pyarrow"`` expects), a RecordBatch for a RecordBatch (Spark's ``mapInArrow``).

    A pure function of its input, so any engine can call it on any split of the data: Ray Data
    ``ds.map_batches(detect_batch, batch_format="pyarrow")``, Spark
    ``df.mapInArrow(lambda batches: map(detect_batch, batches), schema)`` (``docs/audit.md``).
    """
    conversations = detect_all(batch)[0]
    return pa.Table.from_batches([conversations]) if isinstance(batch, pa.Table) else conversations


def flagged_turns(batch: pa.RecordBatch | pa.Table) -> pa.RecordBatch:
    """One :data:`FLAGGED_TURNS` row per flagged assistant turn of ``batch``."""
    return detect_all(batch)[1]
