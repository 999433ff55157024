"""The judged scope verdict of one conversation: unparsed turns are never read as in scope."""

from __future__ import annotations

from trustmh.audit.statutes.judged import SCOPE_RUBRIC, scope_verdict


def test_a_flagged_turn_makes_the_conversation_out_of_scope_even_beside_an_unparsed_one() -> None:
    found = scope_verdict({1: 0, 2: None, 3: 1}, "openai/j")
    assert found["verdict"] == 1 and found["turns"] == [3] and found["unparsed_turns"] == [2]
    assert found["rubric"] == SCOPE_RUBRIC.name and found["judge"] == "openai/j"


def test_an_unparsed_turn_without_a_flag_leaves_the_verdict_unparsed() -> None:
    assert scope_verdict({1: 0, 2: None}, "j")["verdict"] is None


def test_every_turn_parsed_and_none_flagged_is_in_scope() -> None:
    found = scope_verdict({1: 0, 2: 0}, "j")
    assert found["verdict"] == 0 and found["judged_turns"] == [1, 2] and found["turns"] == []
