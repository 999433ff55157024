"""The shared strict readers (issue 35, item 11): every CSV row as wide as its header, no column
named twice, a quote that is closed, cells up to the documented 200,000 characters (the csv
module's own limit, 131,072, refused a 150,000-character message), JSON nesting too deep to
parse, and control characters in ids: each one line naming file, line and field."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from trustmh.audit.readers import read_conversations
from trustmh.core.errors import DataFormatError
from trustmh.data.readers import MAX_FIELD_CHARS, checked_id, csv_rows, parse_json, read_csv_rows, read_jsonl
from trustmh.judgecheck.ratings import read_ratings

LONG_MESSAGE = "é" * 150_000  # under the limit, over csv's default 131,072


def _rows(text: str) -> list[tuple[int, dict[str, str]]]:
    return list(csv_rows(Path("t.csv"), io.StringIO(text, newline="")))


def test_rows_carry_the_line_they_start_on() -> None:
    text = 'a,b\n1,"two\nlines"\n\n3,4\n'
    assert _rows(text) == [(2, {"a": "1", "b": "two\nlines"}), (5, {"a": "3", "b": "4"})]


@pytest.mark.parametrize(
    ("text", "where", "expected"),
    [
        ("a,b\n1\n", "line 2", "fewer fields than the 2 columns of the header (found 1; a short row)"),
        ("a,b\n1,2,3\n", "line 2", "more fields than the 2 columns of the header (found 3)"),
        ("a,b,a\n1,2,3\n", "line 1", "column 'a' appears twice in the header"),
        (" a ,b,\ufeffa\n1,2,3\n", "line 1", "column 'a' appears twice in the header"),
        ('a,b\n1,2\n3,"4\n5,6\n', "line 3", "a quoted cell is never closed"),
        ('a,b\n1,"2"x\n', "line 2", "expected valid CSV"),
        (f"a,b\n1,{'x' * (MAX_FIELD_CHARS + 1)}\n", "line 2, column 'b'", "expected at most 200000 characters"),
    ],
)
def test_a_malformed_csv_is_one_line_naming_file_and_line(text: str, where: str, expected: str) -> None:
    with pytest.raises(DataFormatError) as raised:
        _rows(text)
    message = str(raised.value)
    assert message.startswith(f"t.csv:{where}: ") and expected in message and "\n" not in message, message


def test_unnamed_columns_may_repeat() -> None:
    """Spreadsheet exports end rows with empty columns; nobody reads them by name."""
    assert _rows("a,,\n1,,\n") == [(2, {"a": "1", "": ""})]


def test_a_cell_up_to_the_limit_is_read(tmp_path: Path) -> None:
    path = tmp_path / "long.csv"
    path.write_text(f"a,b\n1,{LONG_MESSAGE}\n", encoding="utf-8")
    assert read_csv_rows(path, ("a", "b"))[0]["b"] == LONG_MESSAGE


def test_json_nested_too_deeply_is_malformed_json_not_a_crash(tmp_path: Path) -> None:
    with pytest.raises(json.JSONDecodeError, match="nested too deeply to read"):
        parse_json("[" * 100_000 + "]" * 100_000)
    assert parse_json("[[1]]") == [[1]]
    path = tmp_path / "deep.jsonl"
    path.write_text('{"a": 1}\n{"a": ' + "[" * 50_000 + "]" * 50_000 + "}\n", encoding="utf-8")
    with pytest.raises(DataFormatError, match=r"deep.jsonl:line 2: expected one JSON object per line \(nested too"):
        read_jsonl(path)


@pytest.mark.parametrize("value", ["a\x00b", "a\nb", "a\x1bb", "a\x7fb", "a\x85b"])
def test_an_id_with_a_control_character_is_refused(value: str) -> None:
    with pytest.raises(DataFormatError, match=r"t.csv:line 2: expected a sample id without control characters"):
        checked_id(value, Path("t.csv"), "line 2", "sample id")


def test_an_id_is_stripped_and_may_hold_any_printable_text() -> None:
    assert checked_id("  c-1 (é, 会话) ", Path("t.csv"), "line 2") == "c-1 (é, 会话)"
    with pytest.raises(DataFormatError, match="expected a non-empty id"):
        checked_id("  ", Path("t.csv"), "line 2")


def test_a_150000_character_message_is_audited_in_both_formats(tmp_path: Path) -> None:
    csv_path = tmp_path / "t.csv"
    csv_path.write_text(f"conversation_id,turn,role,content\nc1,1,user,hi\nc1,2,assistant,{LONG_MESSAGE}\n")
    jsonl_path = tmp_path / "t.jsonl"
    messages = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": LONG_MESSAGE}]
    jsonl_path.write_text(json.dumps({"id": "c1", "messages": messages}) + "\n", encoding="utf-8")
    for path in (csv_path, jsonl_path):
        (conversation,) = read_conversations(path)
        assert conversation.turns()[0].assistant == LONG_MESSAGE


def test_a_long_note_in_a_ratings_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "human.csv"
    path.write_text(f"sample_id,field,rater,score,note\ns1,quality,ann,4,{LONG_MESSAGE}\n", encoding="utf-8")
    (rating,) = read_ratings(path)
    assert rating.value == 4.0
