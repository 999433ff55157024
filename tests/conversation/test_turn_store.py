"""The turn store: stored calls are replayed (never requested again), only for the same call.

The kill-and-rerun test (test_resume.py) covers scripted conversations through the CLI; these
cover the simulated user, what a key depends on, expiry and an unusable store.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.event import ModelEvent
from inspect_ai.model import ModelOutput, get_model

from tests.fakes import CALLS, script
from trustmh.conversation import conversation
from trustmh.conversation.turn_store import EXPIRY_SECONDS, FILE_NAME, CallKey, TurnStore, turn_store


def _persona_task(sample_id: str = "p1") -> Task:
    metadata = {"persona": "Ana, 52, night-shift nurse, sleeps badly; speaks briefly."}
    return Task(
        dataset=MemoryDataset([Sample(id=sample_id, input="Ana", metadata=metadata)]),
        solver=conversation(max_turns=3),
    )


def _run(
    tmp_path: Path, name: str, target: str, user: str, folder: str = "logs", **options
) -> tuple[list, list[ModelEvent]]:
    """Run ``name`` (a label) into the log folder ``folder``: the store replays within one folder."""
    [log] = eval(
        _persona_task(),
        model=target,
        model_roles={"user": get_model(user)},
        log_dir=str(tmp_path / folder),
        display="none",
        **options,
    )
    sample = log.samples[-1]
    return sample.messages, [e for e in sample.events if isinstance(e, ModelEvent)]


def test_a_stored_conversation_is_replayed_without_any_call(tmp_path: Path) -> None:
    user = script("store-user", ["I can't sleep after shifts.", "It's every week now.", "Maybe."])
    target = script("store-target", [lambda prompt: f"Tell me more about: {prompt}"])
    first, first_events = _run(tmp_path, "first", target, user)
    assert len(CALLS["store-user"]) == 3 and len(CALLS["store-target"]) == 3
    assert {e.cache for e in first_events} == {None} and len(first_events) == 6

    second, second_events = _run(tmp_path, "second", target, user)
    assert len(CALLS["store-user"]) == 3 and len(CALLS["store-target"]) == 3  # nothing requested again
    assert [(m.role, m.text) for m in second] == [(m.role, m.text) for m in first]
    assert [e.cache for e in second_events] == ["read"] * 6
    assert [e.role for e in second_events] == [e.role for e in first_events]


def test_a_run_into_another_log_folder_holds_its_conversations_anew(tmp_path: Path) -> None:
    user = script("store-user-3", ["I can't sleep after shifts.", "It's every week now.", "Maybe."])
    target = script("store-target-3", [lambda prompt: f"Tell me more about: {prompt}"])
    _run(tmp_path, "first", target, user)
    _, events = _run(tmp_path, "elsewhere", target, user, folder="other-logs")
    assert len(CALLS["store-target-3"]) == 6 and {e.cache for e in events} == {None}


def test_other_settings_are_other_calls(tmp_path: Path) -> None:
    user = script("store-user-2", ["Hello.", "Work is hard.", "Yes."])
    target = script("store-target-2", [lambda prompt: f"Heard: {prompt}"])
    _run(tmp_path, "first", target, user)
    _run(tmp_path, "longer", target, user, max_tokens=77)  # the target's settings changed
    assert len(CALLS["store-target-2"]) == 6
    assert len(CALLS["store-user-2"]) == 3  # the user's answers depend on the same conversation: replayed
    _run(tmp_path, "epoch2", target, user, epochs=2)  # epoch 1 replays, epoch 2 is new
    assert len(CALLS["store-target-2"]) == 9 and len(CALLS["store-user-2"]) == 6


def test_keys_are_incremental_and_unambiguous() -> None:
    key = CallKey("target", "m")
    key.add("user", "ab")
    first = key.key()
    assert key.key() == first  # reading the key does not advance it
    other = CallKey("target", "m")
    other.add("user", "a")
    other.add("b", "")
    assert other.key() != first
    key.add("assistant", "x")
    assert key.key() != first


def test_expired_entries_are_not_replayed(tmp_path: Path) -> None:
    store = TurnStore(tmp_path / FILE_NAME)
    store.put("k", ModelOutput.from_content("m", "old answer"))
    assert store.get("k") is not None and store.get("k").completion == "old answer"
    store._db.execute("UPDATE turns SET created = ?", (time.time() - EXPIRY_SECONDS - 1,))
    assert store.get("k") is None
    store.close()
    assert (tmp_path / FILE_NAME).stat().st_mode & 0o077 == 0  # prompts and answers: owner only


def test_an_unusable_store_is_a_warning_and_the_conversation_still_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("TRUSTMH_CACHE_DIR", str(blocker))
    with caplog.at_level(logging.WARNING, logger="trustmh.conversation.turn_store"):
        assert turn_store() is None
    assert "conversation turns are not stored" in caplog.text
    user = script("store-user-3", ["Hi."])
    target = script("store-target-3", ["Hello."])
    messages, _ = _run(tmp_path, "nostore", target, user)
    assert len(messages) == 6
