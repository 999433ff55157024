"""Streaming readers of transcript exports: one :class:`Conversation` at a time, never the whole file.

Two formats (``docs/audit.md``):

* **JSONL** (``.jsonl``): one conversation per line in the OpenAI chat format,
  ``{"id": ..., "messages": [{"role": "user", "content": "..."}, ...], "metadata": {...}}``.
  ``id`` (or ``conversation_id``) is optional (default ``line-<N>``); ``content`` is a string or a
  list of ``{"type": "text", "text": ...}`` parts; other top-level scalar keys and the ``metadata``
  object are carried through as the conversation's metadata.
* **CSV** (``.csv``): one message per row with the columns ``conversation_id, turn, role, content``;
  a conversation's rows are consecutive and in increasing ``turn`` order (the order exports
  come in); any other column is metadata, taken from the conversation's first row.

Per message, optionally (both formats): a time, ``created_at`` or ``timestamp`` (ISO 8601, a
naive one read as UTC, or seconds since the epoch; milliseconds when above 10^11), and a
``session_id`` (a JSONL message field or a CSV column). They feed the statutory checks
(:mod:`trustmh.audit.statutes`); a message without a time makes the time-based checks "not
checkable", never passed.

Roles: ``system`` (and ``developer``) messages are kept out of the turns; ``user`` and
``assistant`` make the turns; anything else (``tool``, ``function``) is refused, since it is not
part of what a person read. Every problem is a one-line :class:`~trustmh.core.errors.DataFormatError`
naming the file, the line and the field.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from trustmh.core.errors import DataFormatError, UserError
from trustmh.core.paths import check_input_file, os_error_words
from trustmh.core.turn import Turn
from trustmh.data.readers import checked_id, csv_rows, parse_json

ROLES = ("system", "developer", "user", "assistant")
CSV_COLUMNS = ("conversation_id", "turn", "role", "content")
MAX_MESSAGE_CHARS = 200_000  # one message above this is a corrupted export, not a chat message
MAX_METADATA_CHARS = 2_000
TIME_FIELDS = ("created_at", "timestamp")
SESSION_FIELD = "session_id"
EPOCH_MILLISECONDS = 1e11  # an epoch above this is in milliseconds (1e11 s is the year 5138)


@dataclass
class Conversation:
    """One exported conversation: its messages ``(role, text)`` in order and its metadata."""

    id: str
    messages: list[tuple[str, str]]
    metadata: dict[str, str] = field(default_factory=dict)
    line: int = 0  # where it starts in the file
    # per message, when the export gives them (else empty): seconds since the epoch, session ids
    times: list[float | None] = field(default_factory=list)
    sessions: list[str | None] = field(default_factory=list)

    def turns(self) -> list[Turn]:
        """User/assistant exchanges: the user's messages since the last reply, then the reply.

        Consecutive messages of one side are joined (a chatbot sending two bubbles gives one
        answer); a reply with no user message before it (a greeting) has an empty user side; a
        last user message nobody answered is not a turn (there is no answer to score).
        """
        turns: list[Turn] = []
        user: list[str] = []
        answer: list[str] = []
        for role, text in self.messages:
            if role == "user":
                if answer:
                    turns.append(Turn(len(turns) + 1, "\n\n".join(user), "\n\n".join(answer)))
                    user, answer = [], []
                user.append(text)
            elif role == "assistant":
                answer.append(text)
        if answer:
            turns.append(Turn(len(turns) + 1, "\n\n".join(user), "\n\n".join(answer)))
        return turns

    def system_prompt(self) -> str | None:
        parts = [text for role, text in self.messages if role in ("system", "developer")]
        return "\n\n".join(parts) if parts else None


def read_conversations(path: Path) -> Iterator[Conversation]:
    """The conversations of ``path`` one by one (by its suffix: ``.jsonl``/``.json`` or ``.csv``)."""
    check_input_file(path, "a transcript export (.jsonl or .csv)")
    suffix = path.suffix.lower()
    if suffix not in (".jsonl", ".csv"):
        raise DataFormatError(path, None, "expected a .jsonl (OpenAI chat messages) or .csv export")
    seen: set[str] = set()
    reader = _jsonl_conversations if suffix == ".jsonl" else _csv_conversations
    try:
        with path.open(encoding="utf-8", newline="" if suffix == ".csv" else None) as handle:
            for conversation in reader(path, handle):
                if conversation.id in seen:
                    raise DataFormatError(
                        path, f"line {conversation.line}", f"conversation id {conversation.id!r} appears twice"
                    )
                seen.add(conversation.id)
                yield conversation
    except UnicodeDecodeError as error:
        raise DataFormatError(path, None, f"expected utf-8 text, found undecodable byte ({error.reason})") from None
    except OSError as error:
        raise UserError(f"{path}: cannot read ({os_error_words(error)})") from None
    if not seen:
        raise DataFormatError(path, None, "the file holds no conversation")


def _text(value: Any, path: Path, where: str) -> str:
    if isinstance(value, str):
        text = value
    elif isinstance(value, list) and all(isinstance(p, dict) and isinstance(p.get("text"), str) for p in value):
        text = "\n".join(p["text"] for p in value)  # content parts: [{"type": "text", "text": ...}]
    else:
        raise DataFormatError(path, where, "expected a string (or a list of text parts)")
    if len(text) > MAX_MESSAGE_CHARS:
        raise DataFormatError(path, where, f"expected at most {MAX_MESSAGE_CHARS} characters, found {len(text)}")
    return text


def _role(value: Any, path: Path, where: str) -> str:
    role = value.strip().lower() if isinstance(value, str) else None
    if role not in ROLES:
        raise DataFormatError(path, where, f"expected a role of {', '.join(ROLES)}, found {value!r}")
    return role


def _scalar(value: Any, path: Path, where: str) -> str:
    if isinstance(value, dict | list):
        raise DataFormatError(path, where, "expected a string, number or boolean as metadata")
    text = "" if value is None else str(value)
    if len(text) > MAX_METADATA_CHARS:
        raise DataFormatError(path, where, f"expected metadata of at most {MAX_METADATA_CHARS} characters")
    return text


def parse_time(value: Any, path: Path, where: str) -> float | None:
    """Seconds since the epoch of an ISO 8601 time or an epoch number (``None``/empty: no time)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise DataFormatError(path, where, "expected an ISO 8601 time or seconds since the epoch")
    try:
        number = float(value)
    except ValueError:
        number = None
    if number is not None:
        if number != number or number in (float("inf"), float("-inf")) or number < 0:
            raise DataFormatError(path, where, f"expected a time, found {value!r}")
        return number / 1000.0 if number > EPOCH_MILLISECONDS else number
    try:
        moment = datetime.fromisoformat(str(value).strip())
    except ValueError:
        raise DataFormatError(path, where, f"expected an ISO 8601 time or epoch seconds, found {value!r}") from None
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp()


def _time_of(record: dict[str, Any], path: Path, where: Callable[[str], str]) -> float | None:
    for key in TIME_FIELDS:
        if record.get(key) not in (None, ""):
            return parse_time(record[key], path, where(key))
    return None


def _session_of(record: dict[str, Any], path: Path, where: Callable[[str], str]) -> str | None:
    value = record.get(SESSION_FIELD)
    text = None if value is None else _scalar(value, path, where(SESSION_FIELD)).strip()
    return text or None


def _jsonl_conversation(path: Path, number: int, line: str) -> Conversation:
    where = f"line {number}"
    try:
        record = parse_json(line)
    except json.JSONDecodeError as error:
        raise DataFormatError(path, where, f"expected one JSON object per line ({error.msg})") from None
    if not isinstance(record, dict):
        raise DataFormatError(path, where, "expected a JSON object with a 'messages' list")
    messages = record.get("messages")
    if not isinstance(messages, list) or not messages:
        raise DataFormatError(path, f"{where}, field 'messages'", "expected a non-empty list of {role, content}")
    parsed = []
    times: list[float | None] = []
    sessions: list[str | None] = []
    for index, message in enumerate(messages):
        at = f"{where}, field 'messages[{index}]'"
        if not isinstance(message, dict):
            raise DataFormatError(path, at, "expected an object with 'role' and 'content'")
        parsed.append(
            (_role(message.get("role"), path, f"{at}.role"), _text(message.get("content"), path, f"{at}.content"))
        )
        field_of = functools.partial("{}.{}".format, at)
        times.append(_time_of(message, path, field_of))
        sessions.append(_session_of(message, path, field_of))
    raw_id = record.get("id", record.get("conversation_id"))
    conversation_id = (
        f"line-{number}"
        if raw_id is None
        else checked_id(_scalar(raw_id, path, f"{where}, field 'id'"), path, f"{where}, field 'id'", "conversation id")
    )
    metadata: dict[str, str] = {}
    extra = record.get("metadata", {})
    if not isinstance(extra, dict):
        raise DataFormatError(path, f"{where}, field 'metadata'", "expected an object of metadata values")
    items = [
        *((k, v) for k, v in record.items() if k not in ("messages", "metadata", "id", "conversation_id")),
        *extra.items(),
    ]
    for key, value in items:
        metadata[str(key)] = _scalar(value, path, f"{where}, field {key!r}")
    if not any(t is not None for t in times) and not any(sessions):
        times, sessions = [], []
    return Conversation(conversation_id, parsed, metadata, number, times, sessions)


def _jsonl_conversations(path: Path, handle: TextIO) -> Iterator[Conversation]:
    for number, line in enumerate(handle, start=1):
        if line.strip():
            yield _jsonl_conversation(path, number, line.lstrip("\ufeff") if number == 1 else line)


def _csv_turn(value: str | None, path: Path, where: str) -> int:
    try:
        number = int((value or "").strip())
    except ValueError:
        raise DataFormatError(path, where, f"expected a whole turn number, found {value!r}") from None
    if number < 0:
        raise DataFormatError(path, where, f"expected a turn number of 0 or more, found {number}")
    return number


def _check_csv_header(path: Path) -> Callable[[list[str]], None]:
    def check(header: list[str]) -> None:
        missing = [c for c in CSV_COLUMNS if c not in header]
        if missing:
            raise DataFormatError(
                path, "line 1", f"expected the columns {', '.join(CSV_COLUMNS)}; missing {', '.join(missing)}"
            )

    return check


def _csv_conversations(path: Path, handle: TextIO) -> Iterator[Conversation]:
    # The shared strict reader: short rows, a column named twice, an unterminated quote are errors.
    current: Conversation | None = None
    last_turn = 0
    finished: set[str] = set()
    for line, row in csv_rows(path, handle, _check_csv_header(path)):
        where = f"line {line}"
        conversation_id = checked_id(
            row["conversation_id"], path, f"{where}, column 'conversation_id'", "conversation id"
        )
        turn = _csv_turn(row["turn"], path, f"{where}, column 'turn'")
        role = _role(row["role"], path, f"{where}, column 'role'")
        text = _text(row["content"], path, f"{where}, column 'content'")
        if current is None or conversation_id != current.id:
            if conversation_id in finished:
                raise DataFormatError(
                    path,
                    f"{where}, column 'conversation_id'",
                    f"conversation {conversation_id!r} continues after other conversations; "
                    "sort the export by conversation_id, turn",
                )
            if current is not None:
                finished.add(current.id)
                yield current
            metadata = {
                c: _scalar(row[c], path, f"{where}, column {c!r}")
                for c in row
                if c not in CSV_COLUMNS and c not in TIME_FIELDS
            }
            current, last_turn = Conversation(conversation_id, [], metadata, line), turn - 1
        if turn <= last_turn:
            raise DataFormatError(
                path,
                f"{where}, column 'turn'",
                f"expected turns in increasing order, found {turn} after {last_turn}",
            )
        last_turn = turn
        current.messages.append((role, text))
        if any(c in row for c in (*TIME_FIELDS, SESSION_FIELD)):  # per message: for the statutory checks
            column = functools.partial("{}, column '{}'".format, where)
            current.times.append(_time_of(row, path, column))
            current.sessions.append(_session_of(row, path, column))
    if current is not None:
        yield current
