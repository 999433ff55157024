"""Detectors that several checks ask about one message run once per conversation.

The audit's per-turn detectors and the statutory checks read the same messages: whether a user
message shows risk, whether a reply names a crisis service. Inside :func:`conversation_memo`
(one conversation of the detector pass), a function decorated with :func:`once_per_conversation`
answers each text once; outside it, the function simply runs. The memo ends with the
conversation, so it can neither grow with the export nor carry an answer into another
conversation: the functions it holds are pure, and a result is the same with it or without.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

T = TypeVar("T")
_answers: ContextVar[dict[tuple[object, str], object] | None] = ContextVar("conversation_memo", default=None)


@contextmanager
def conversation_memo() -> Iterator[None]:
    """Remember the decorated detectors' answers until the block ends (one conversation)."""
    token = _answers.set({})
    try:
        yield
    finally:
        _answers.reset(token)


def once_per_conversation(function: Callable[[str], T]) -> Callable[[str], T]:
    """``function(text)``, answered once per text inside :func:`conversation_memo`."""

    @functools.wraps(function)
    def remembered(text: str) -> T:
        answers = _answers.get()
        if answers is None:
            return function(text)
        key = (function, text)
        if key not in answers:
            answers[key] = function(text)
        return answers[key]  # type: ignore[return-value]

    return remembered
