"""The turn store never hands one chatbot's answers to another (issue 25, item 3).

Same model name, same sample, same log folder: only the model arguments (``-M``) or the content
of the config file they name differ. The second chatbot must be called.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import MemoryDataset, Sample

from tests.fakes import CALLS, script
from trustmh.conversation import conversation
from trustmh.conversation.turn_store import FILE_NAME, model_args_identity, turn_store


def _task() -> Task:
    turns = ["I can't sleep.", "It's every night."]
    return Task(
        dataset=MemoryDataset([Sample(id="s1", input="x", metadata={"user_turns": turns})]), solver=conversation()
    )


def _answers(tmp_path: Path, reply: str, **model_args: object) -> tuple[list[str], int]:
    """Run the chatbot (scripted/chatbot answering ``reply``) into the one log folder."""
    name = script("chatbot", [reply])
    [log] = eval(_task(), model=name, model_args=model_args, log_dir=str(tmp_path / "logs"), display="none")
    answers = [m.text for m in log.samples[0].messages if m.role == "assistant"]
    return answers, len(CALLS["chatbot"])


def test_chatbot_b_after_chatbot_a_in_one_log_folder_is_called(tmp_path: Path) -> None:
    assert _answers(tmp_path, "I am chatbot A.", endpoint="http://a.example/chat") == (["I am chatbot A."] * 2, 2)
    assert _answers(tmp_path, "I am chatbot B.", endpoint="http://b.example/chat") == (["I am chatbot B."] * 2, 2)
    # the same chatbot again is replayed, as a resumed run must be
    assert _answers(tmp_path, "never asked", endpoint="http://b.example/chat") == (["I am chatbot B."] * 2, 0)


def test_an_edited_config_file_is_another_chatbot(tmp_path: Path) -> None:
    config = tmp_path / "bot.yaml"
    config.write_text("url: http://a.example/chat\n", encoding="utf-8")
    assert _answers(tmp_path, "I am chatbot A.", http_config=str(config))[0] == ["I am chatbot A."] * 2
    config.write_text("url: http://b.example/chat\n", encoding="utf-8")
    assert _answers(tmp_path, "I am chatbot B.", http_config=str(config)) == (["I am chatbot B."] * 2, 2)


def test_model_args_identity_hashes_file_content_not_secrets_in_clear() -> None:
    assert model_args_identity({"b": 1, "a": "x"}) == 'a="x"\nb=1'
    assert model_args_identity({}) == ""


def test_a_corrupt_turn_row_is_skipped_with_a_warning(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    assert _answers(tmp_path, "First answer.")[1] == 2
    store = turn_store()
    assert store is not None
    db = sqlite3.connect(str(store.path))
    db.execute("UPDATE turns SET output = '{not json'")
    db.commit()
    db.close()
    with caplog.at_level(logging.WARNING):
        answers, calls = _answers(tmp_path, "Asked again.")
    assert (answers, calls) == (["Asked again."] * 2, 2)  # the resume goes on; only the bad turns are asked again
    assert any(FILE_NAME in r.getMessage() and "corrupt" in r.getMessage() for r in caplog.records)
