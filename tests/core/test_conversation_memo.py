"""A detector asked twice about one text inside a conversation runs once; outside, every time."""

from __future__ import annotations

from collections.abc import Callable

from trustmh.core.conversation_memo import conversation_memo, once_per_conversation


def _counting() -> tuple[list[str], Callable[[str], bool]]:
    calls: list[str] = []

    @once_per_conversation
    def shouts(text: str) -> bool:
        calls.append(text)
        return text.isupper()

    return calls, shouts


def test_inside_a_conversation_each_text_is_answered_once() -> None:
    calls, shouts = _counting()
    with conversation_memo():
        answers = [shouts("HELP"), shouts("calm"), shouts("HELP"), shouts("calm")]
    assert answers == [True, False, True, False]
    assert calls == ["HELP", "calm"]


def test_the_memo_ends_with_the_conversation_and_is_absent_outside() -> None:
    calls, shouts = _counting()
    with conversation_memo():
        shouts("HELP")
    with conversation_memo():
        shouts("HELP")  # a new conversation asks again
    shouts("HELP")
    shouts("HELP")
    assert calls == ["HELP"] * 4


def test_two_detectors_keep_their_own_answers_for_one_text() -> None:
    @once_per_conversation
    def first(text: str) -> str:
        return "first"

    @once_per_conversation
    def second(text: str) -> str:
        return "second"

    with conversation_memo():
        assert (first("x"), second("x"), first("x")) == ("first", "second", "first")
