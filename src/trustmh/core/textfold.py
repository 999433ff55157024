"""Cheap cue tests in front of case-insensitive patterns: settle most texts without running them.

A pattern compiled with ``re.IGNORECASE`` matches a few non-ASCII letters where its ASCII letters
are (U+0130 and U+0131 for "i", U+017F long s for "s", U+212A Kelvin sign for "k"), which
``str.lower`` leaves alone or turns into two characters. :func:`fold` maps those to their ASCII
letter, lower-cases the rest and collapses whitespace, so that a match of such a pattern made of
ASCII words and ``\\s+`` is, folded, a plain substring: if none of a pattern's cue words is in the
folded text, the pattern cannot match it (tests/core/test_textfold.py checks the letters against
``re`` over every code point).
"""

from __future__ import annotations

from collections.abc import Iterable

# re.IGNORECASE equivalences with an ASCII letter that lower() does not give as that letter
_TO_ASCII = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})


def fold(text: str) -> str:
    """``text`` lower-cased as ``re.IGNORECASE`` compares ASCII letters, whitespace runs as one space."""
    return " ".join(text.translate(_TO_ASCII).lower().split())


def holds_any(folded: str, cues: Iterable[str]) -> bool:
    """Is any of ``cues`` (lower case, single spaces) in ``folded`` (a :func:`fold`-ed text)?"""
    return any(map(folded.__contains__, cues))
