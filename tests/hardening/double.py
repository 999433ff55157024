"""Thin wrapper over the bulk engineer's :mod:`tests.doubles.openai_double`.

The double counts requests per *sample key* (a hash of the request's messages). Inspect's
openai provider sends no ``X-Sample-Key``, so tests need to map those keys back to sample
ids: this wrapper's responder records ``key -> last user message`` as requests arrive, and
:meth:`CountingDouble.counts_by_input` gives request counts per (whitespace-normalised)
prompt text, which the tests match against ``sample.input`` in the inspect log.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests.doubles.openai_double import Faults, OpenAIDouble, _last_user_text, default_responder, messages_key

__all__ = ["CountingDouble", "Faults", "normalise", "running_double"]


def normalise(text: str) -> str:
    return " ".join(text.split())


class CountingDouble(OpenAIDouble):
    """An in-process :class:`OpenAIDouble` that also remembers which prompt each key is."""

    def __init__(self, **kwargs: Any) -> None:
        self._texts: dict[str, str] = {}
        self._texts_lock = threading.Lock()
        super().__init__(responder=self._respond, in_process=True, **kwargs)

    def _respond(self, messages: list[dict[str, Any]]) -> str:
        with self._texts_lock:
            self._texts[messages_key(messages)] = normalise(_last_user_text(messages))
        return default_responder(messages)

    def remember(self, messages: list[dict[str, Any]]) -> None:
        with self._texts_lock:
            self._texts[messages_key(messages)] = normalise(_last_user_text(messages))

    def counts_by_input(self) -> dict[str, int]:
        """Requests per prompt text (only keys that got at least one answer are named)."""
        counts = self.request_counts
        with self._texts_lock:
            texts = dict(self._texts)
        by_text: dict[str, int] = {}
        for key, count in counts.items():
            text = texts.get(key, f"<unanswered {key}>")
            by_text[text] = by_text.get(text, 0) + count
        return by_text


@contextmanager
def running_double(**kwargs: Any) -> Iterator[CountingDouble]:
    with CountingDouble(**kwargs) as double:
        yield double
