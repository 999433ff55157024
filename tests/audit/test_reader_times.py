"""Per-message times and session ids in transcript exports (for the statutory checks)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trustmh.audit.readers import read_conversations
from trustmh.core.errors import DataFormatError

NOON = 1767268800.0  # 2026-01-01T12:00:00Z


def _jsonl(tmp_path: Path, messages: list[dict[str, object]]) -> Path:
    path = tmp_path / "export.jsonl"
    path.write_text(json.dumps({"id": "c1", "messages": messages}) + "\n", encoding="utf-8")
    return path


def test_jsonl_times_in_iso_epoch_and_milliseconds(tmp_path: Path) -> None:
    path = _jsonl(
        tmp_path,
        [
            {"role": "user", "content": "a", "created_at": "2026-01-01T12:00:00Z", "session_id": "s1"},
            {"role": "assistant", "content": "b", "timestamp": NOON + 5},
            {"role": "user", "content": "c", "timestamp": (NOON + 10) * 1000},
            {"role": "assistant", "content": "d", "created_at": "2026-01-01T07:00:15-05:00"},
            {"role": "user", "content": "e", "created_at": "2026-01-01T12:00:20"},  # naive: UTC
            {"role": "assistant", "content": "f"},
        ],
    )
    (conversation,) = read_conversations(path)
    assert conversation.times == [NOON, NOON + 5, NOON + 10, NOON + 15, NOON + 20, None]
    assert conversation.sessions == ["s1", None, None, None, None, None]
    assert conversation.messages[0] == ("user", "a")  # the messages themselves are unchanged


def test_an_export_without_times_has_none(tmp_path: Path) -> None:
    (conversation,) = read_conversations(_jsonl(tmp_path, [{"role": "user", "content": "a"}]))
    assert conversation.times == [] and conversation.sessions == []


@pytest.mark.parametrize("bad", ["yesterday", True, {"t": 1}, -5])
def test_a_bad_time_is_one_line_naming_the_field(tmp_path: Path, bad: object) -> None:
    path = _jsonl(tmp_path, [{"role": "user", "content": "a", "created_at": bad}])
    with pytest.raises(DataFormatError, match=r"line 1, field 'messages\[0\]'\.created_at: expected"):
        list(read_conversations(path))


def test_csv_time_and_session_columns_are_per_message_not_metadata(tmp_path: Path) -> None:
    path = tmp_path / "export.csv"
    path.write_text(
        "conversation_id,turn,role,content,created_at,session_id,age_band\n"
        "c1,1,user,hi,2026-01-01T12:00:00Z,s1,13-17\n"
        f"c1,2,assistant,hello,{NOON + 5:.0f},s1,13-17\n"
        "c1,3,user,back,,s2,13-17\n",
        encoding="utf-8",
    )
    (conversation,) = read_conversations(path)
    assert conversation.times == [NOON, NOON + 5, None]
    assert conversation.sessions == ["s1", "s1", "s2"]
    assert conversation.metadata["age_band"] == "13-17" and "created_at" not in conversation.metadata


def test_csv_bad_time_names_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "export.csv"
    path.write_text("conversation_id,turn,role,content,timestamp\nc1,1,user,hi,soon\n", encoding="utf-8")
    with pytest.raises(DataFormatError, match=r"line 2, column 'timestamp': expected"):
        list(read_conversations(path))
