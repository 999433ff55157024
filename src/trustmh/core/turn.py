"""One user/assistant exchange: a plain type, apart from the inspect machinery that fills it.

Kept out of :mod:`trustmh.conversation.record` (which re-exports it) so that code reading recorded
turns, such as the audit's detector workers, does not import inspect_ai.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Turn:
    """One exchange: the user's message and the assistant's answer (1-based ``number``)."""

    number: int
    user: str
    assistant: str
