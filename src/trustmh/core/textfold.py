"""Cheap cue tests in front of case-insensitive patterns: settle most texts without running them.

A pattern compiled with ``re.IGNORECASE`` matches a few non-ASCII letters where its ASCII letters
are (U+0130 and U+0131 for "i", U+017F long s for "s", U+212A Kelvin sign for "k"), which
``str.lower`` leaves alone or turns into two characters. :func:`fold` maps those to their ASCII
letter, lower-cases the rest and collapses whitespace, so that a match of such a pattern made of
ASCII words and ``\\s+`` is, folded, a plain substring: if none of a pattern's cue words is in the
folded text, the pattern cannot match it (tests/core/test_textfold.py checks the letters against
``re`` over every code point).

:func:`ascii_words` is the same idea for patterns with ``\\b``, ``\\w`` or case-sensitive parts:
in an ASCII text, a word of a match that a non-letter (or the text's edge) bounds on both sides is
one of the text's lower-cased letter runs.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import ahocorasick

from trustmh.core.conversation_memo import once_per_conversation

# re.IGNORECASE equivalences with an ASCII letter that lower() does not give as that letter
_TO_ASCII = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})
_LOOKALIKES = tuple(map(chr, _TO_ASCII))


@once_per_conversation  # the crisis-service and method checks fold one reply
def fold(text: str) -> str:
    """``text`` lower-cased as ``re.IGNORECASE`` compares ASCII letters, whitespace runs as one space."""
    if any(map(text.__contains__, _LOOKALIKES)):  # rare; a translate looks up every character
        text = text.translate(_TO_ASCII)
    return " ".join(text.lower().split())


def holds_any(folded: str, cues: tuple[str, ...]) -> bool:
    """Is any of ``cues`` (lower case, single spaces) in ``folded`` (a :func:`fold`-ed text)?

    One pass over the text for all the cues (an Aho-Corasick automaton built once per cue tuple),
    the same answer as ``any(cue in folded for cue in cues)``; an empty cue is in every text."""
    entry = _TESTERS.get(id(cues))
    if entry is None or entry[0] is not cues:
        entry = _TESTERS[id(cues)] = (cues, _tester(cues))
    return entry[1](folded)


# id(cue tuple) -> (the tuple, kept so that its id is not reused; its tester)
_TESTERS: dict[int, tuple[tuple[str, ...], Callable[[str], bool]]] = {}


def _tester(cues: tuple[str, ...]) -> Callable[[str], bool]:
    if "" in cues or not cues:
        return lambda text: bool(cues)  # "" is in every text; no cue, in none
    automaton = ahocorasick.Automaton()
    for cue in cues:
        automaton.add_word(cue, None)
    automaton.make_automaton()
    return lambda text: next(automaton.iter(text), None) is not None


# bytes.translate: ASCII capitals to lower case, every other byte but a letter to a space
_LETTERS_ONLY = bytes(c if 97 <= c <= 122 else c + 32 if 65 <= c <= 90 else 32 for c in range(256))


# Punctuation that keyboards put in English text (curly quotes, dashes, an ellipsis, a no-break
# space): none is a letter, a digit or a word character in any flavour, and none has a case, so a
# text that is ASCII but for these keeps the letter-run argument.
_NOT_ASCII_NOR_TYPOGRAPHIC = re.compile("[^\x00-\x7f\u2018\u2019\u201c\u201d\u2013\u2014\u2026\u00a0]")


@once_per_conversation  # the identifier, name and crisis-service checks read one text's runs
def ascii_words(text: str) -> frozenset[str] | None:
    """The lower-cased runs of ASCII letters of ``text`` when its letters are all ASCII (it is ASCII
    but for typographic punctuation, :data:`_NOT_ASCII_NOR_TYPOGRAPHIC`), else ``None``.

    Only for such text: there ``\\b``, ``\\w`` and case folding are ASCII's in ``re`` and ``regex``
    alike; in other text they are Unicode's, and a cue test would need their tables."""
    if text.isascii():
        data = text.encode("ascii")
    elif _NOT_ASCII_NOR_TYPOGRAPHIC.search(text) is None:  # "I’m" is as ASCII as "I'm" for these tests
        data = text.encode("ascii", "replace")  # each typographic character as "?": not a letter either
    else:
        return None
    # bytes.translate in C: twice as fast as re.findall(r"[a-z]+", text.lower()), same runs
    return frozenset(data.translate(_LETTERS_ONLY).decode("ascii").split())
