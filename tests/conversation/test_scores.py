"""Per-conversation fields from per-turn verdicts, against hand-worked cases."""

from __future__ import annotations

import pytest

from trustmh.conversation.record import ConversationRecord, Turn, transcript_text
from trustmh.conversation.scores import NOT_APPLICABLE, any_turn, applicable, first_turn, mean_over, phase_means


def test_first_turn_found_missing_and_hidden_by_unparsed() -> None:
    assert first_turn({4: 0, 5: 2, 6: 2}, lambda v: v == 2).field_value() == 5.0
    assert first_turn({4: 0, 5: 1}, lambda v: v == 2).field_value() is NOT_APPLICABLE  # never: not applicable
    assert first_turn({4: None, 5: 2}, lambda v: v == 2).field_value() is None  # unparsed first: unknown
    assert first_turn({4: 2, 5: None}, lambda v: v == 2).field_value() == 4.0  # found before the gap
    assert first_turn({4: 0, 5: None}, lambda v: v == 2).field_value() is None  # maybe at 5


def test_mean_over_parsed_turns() -> None:
    assert mean_over({4: 0, 5: 1, 6: 2}) == pytest.approx(1.0)
    assert mean_over({4: 0, 5: None, 6: 2}) == pytest.approx(1.0)
    assert mean_over({4: None}) is None
    assert mean_over({}) is NOT_APPLICABLE
    assert mean_over({4: 0, 5: 1, 6: 2}, [5, 6, 7]) == pytest.approx(1.5)


def test_any_turn() -> None:
    assert any_turn({7: 0, 8: 1}, lambda v: v == 1) == 1.0
    assert any_turn({7: 0, 8: 0}, lambda v: v == 1) == 0.0
    assert any_turn({7: 0, 8: None}, lambda v: v == 1) is None
    assert any_turn({7: None, 8: 1}, lambda v: v == 1) == 1.0


def test_phase_means_three_turns_a_phase() -> None:
    phases = phase_means({4: 0, 5: 1, 6: 2, 7: 2, 10: None}, "dcs")
    assert phases == {"dcs_phase2": pytest.approx(1.0), "dcs_phase3": pytest.approx(2.0), "dcs_phase4": None}
    assert applicable({"a": 1.0, "b": NOT_APPLICABLE, "c": None}) == {"a": 1.0, "c": None}


def test_completeness_and_transcript() -> None:
    record = ConversationRecord(planned_turns=3, turns=[Turn(1, "hi", "hello"), Turn(2, "x", "y")])
    assert not record.complete  # still running
    record.ended_by = "script"
    assert not record.complete  # 2 of 3 turns
    record.ended_by = "user_ended"
    assert not record.complete and record.shortened  # the user ended it early: shortened (issue 25)
    assert transcript_text(record.turns, 2) == "[Turn 1] User: hi\n\n[Turn 1] Assistant: hello\n\n[Turn 2] User: x"
