"""Transcript exports: both formats read as a stream into turns; every bad file is one line naming file, line, field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trustmh.audit.readers import Conversation, read_conversations
from trustmh.core.errors import DataFormatError

EXAMPLES = Path(__file__).resolve().parents[2] / "src" / "trustmh" / "audit" / "examples"


def _jsonl(tmp_path: Path, *records: object) -> Path:
    path = tmp_path / "export.jsonl"
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in records) + "\n", encoding="utf-8")
    return path


def _csv(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "export.csv"
    path.write_text(text, encoding="utf-8")
    return path


def test_jsonl_and_csv_examples_read_alike() -> None:
    from_jsonl = list(read_conversations(EXAMPLES / "support_bot.jsonl"))
    from_csv = list(read_conversations(EXAMPLES / "support_bot.csv"))
    assert [c.id for c in from_jsonl] == [c.id for c in from_csv] == [f"c-{i:03d}" for i in range(1, 14)]
    assert [c.messages for c in from_jsonl] == [c.messages for c in from_csv]
    assert from_jsonl[0].metadata == from_csv[0].metadata == {"channel": "app", "locale": "en-GB"}


def test_turns_pair_each_reply_with_the_user_messages_before_it() -> None:
    conversation = Conversation(
        "x",
        [
            ("system", "be kind"),
            ("assistant", "Hello!"),
            ("user", "a"),
            ("user", "b"),
            ("assistant", "one"),
            ("assistant", "two"),
            ("user", "unanswered"),
        ],
    )
    turns = conversation.turns()
    assert [(t.number, t.user, t.assistant) for t in turns] == [(1, "", "Hello!"), (2, "a\n\nb", "one\n\ntwo")]
    assert conversation.system_prompt() == "be kind"


def test_jsonl_defaults_ids_and_accepts_content_parts(tmp_path: Path) -> None:
    parts = [{"type": "text", "text": "hi"}, {"type": "text", "text": "there"}]
    path = _jsonl(tmp_path, {"messages": [{"role": "user", "content": parts}, {"role": "assistant", "content": "ok"}]})
    (conversation,) = read_conversations(path)
    assert conversation.id == "line-1" and conversation.messages[0] == ("user", "hi\nthere")


@pytest.mark.parametrize(
    ("record", "where", "expected"),
    [
        ("{not json", "line 2", "expected one JSON object per line"),
        ({"messages": []}, "line 2, field 'messages'", "non-empty list"),
        ({"messages": [{"role": "robot", "content": "x"}]}, "line 2, field 'messages[0]'.role", "expected a role"),
        ({"messages": [{"role": "tool", "content": "x"}]}, "line 2, field 'messages[0]'.role", "expected a role"),
        ({"messages": [{"role": "user", "content": 5}]}, "line 2, field 'messages[0]'.content", "expected a string"),
        ({"id": "a", "messages": [{"role": "user", "content": "x"}]}, "line 2", "appears twice"),
        ({"messages": [{"role": "user", "content": "x"}], "metadata": [1]}, "line 2, field 'metadata'", "object"),
    ],
)
def test_bad_jsonl_names_file_line_and_field(tmp_path: Path, record: object, where: str, expected: str) -> None:
    first = {"id": "a", "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]}
    path = _jsonl(tmp_path, first, record)
    with pytest.raises(DataFormatError) as caught:
        list(read_conversations(path))
    message = str(caught.value)
    assert message.startswith(f"{path}:{where}") and expected in message and "\n" not in message


CSV_HEAD = "conversation_id,turn,role,content,channel\n"


@pytest.mark.parametrize(
    ("body", "where", "expected"),
    [
        (
            "a,1,user,hi,app\nb,1,user,hi,app\na,2,assistant,hello,app\n",
            "line 4, column 'conversation_id'",
            "sort the export",
        ),
        ("a,2,user,hi,app\na,1,assistant,hello,app\n", "line 3, column 'turn'", "increasing order"),
        ("a,one,user,hi,app\n", "line 2, column 'turn'", "whole turn number"),
        ("a,1,bot,hi,app\n", "line 2, column 'role'", "expected a role"),
        (",1,user,hi,app\n", "line 2, column 'conversation_id'", "non-empty"),
        ("a,1,user,hi,app,extra\n", "line 2", "more"),
    ],
)
def test_bad_csv_names_file_line_and_column(tmp_path: Path, body: str, where: str, expected: str) -> None:
    path = _csv(tmp_path, CSV_HEAD + body)
    with pytest.raises(DataFormatError) as caught:
        list(read_conversations(path))
    message = str(caught.value)
    assert message.startswith(f"{path}:{where}") and expected in message


def test_csv_without_required_columns(tmp_path: Path) -> None:
    path = _csv(tmp_path, "id,role,text\n1,user,hi\n")
    with pytest.raises(
        DataFormatError, match=r"line 1: expected the columns .* missing conversation_id, turn, content"
    ):
        list(read_conversations(path))


def test_other_suffix_and_empty_file(tmp_path: Path) -> None:
    other = tmp_path / "export.txt"
    other.write_text("x", encoding="utf-8")
    with pytest.raises(DataFormatError, match="expected a .jsonl"):
        list(read_conversations(other))
    empty = _jsonl(tmp_path, "")
    with pytest.raises(DataFormatError, match="holds no conversation"):
        list(read_conversations(empty))


def test_undecodable_bytes(tmp_path: Path) -> None:
    path = tmp_path / "export.jsonl"
    path.write_bytes(b'{"messages": [{"role": "user", "content": "\xff"}]}\n')
    with pytest.raises(DataFormatError, match="utf-8"):
        list(read_conversations(path))


def test_reading_is_lazy(tmp_path: Path) -> None:
    """The reader yields the first conversation before it has read a broken later line."""
    good = {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]}
    stream = read_conversations(_jsonl(tmp_path, good, "{broken"))
    assert next(stream).id == "line-1"
    with pytest.raises(DataFormatError):
        next(stream)
