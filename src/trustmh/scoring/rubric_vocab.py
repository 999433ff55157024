"""What a rating of one rubric looks like, read off the rubric itself: its fields' names, scales and label words.

A judged scorer's plant check (:mod:`trustmh.scoring.planted`) needs each rated field's key
and what counts as its value: a number on the field's scale, a number word (``five``), a label
the rubric gives a point of the scale (``5 (Excellent)``, ``0 = challenges``, ``1 (harmful) to
5 (fully appropriate)``, ``0 challenge / 1 neutral / 2 validate``) or, for a labelled field, one
of its choices. Nothing here is a list typed for one rubric: a new rubric is covered by what
it says.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from trustmh.scoring.plant_text import fold, normalise

if TYPE_CHECKING:
    from trustmh.scoring.rubric import JudgeField, Rubric

NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
# Words that do not start a label ("1 = the answer makes...", "1 if the reply...").
_NOT_LABELS = frozenset(
    "a an and any are as at be by each else every for from if in is it its no-op of on or the this that "
    "to turn turns when where which who with".split()
)
_LABEL_END = frozenset("or and but to the a an with of for that which who if".split())
# "N = label", "N: label", "N - label" at a line's start or after a list mark; "N (label"
_LINE_LABEL = re.compile(r"(?m)^[\s*\-]*(\d+)\s*(?:=|:|-)\s*([a-z][a-z' ]*)")
_PAREN_LABEL = re.compile(r"(?<![\w.])(\d+)\s*\(\s*([a-z][a-z' ]*)")
_BARE_LABEL = re.compile(r"(?<![\w.\-])(\d+)\s+([a-z][a-z' ]*)")


def _label(words: str) -> str | None:
    """At most two words of a scale point's description, stopping at a joining word."""
    kept: list[str] = []
    for word in words.split():
        if word in _LABEL_END or len(kept) == 2:
            break
        kept.append(word)
    if not kept or kept[0] in _NOT_LABELS:
        return None
    return " ".join(kept)


def scale_labels(text: str, bare: bool = False) -> dict[str, int]:
    """``{label: point}`` of the scale points ``text`` describes (``bare``: also "0 challenge / 1 neutral")."""
    found: dict[str, int] = {}
    lowered = fold(text).text  # line breaks kept: "N = label" is read at a line's start
    patterns = (_LINE_LABEL, _PAREN_LABEL, _BARE_LABEL) if bare else (_LINE_LABEL, _PAREN_LABEL)
    for pattern in patterns:
        for match in pattern.finditer(lowered):
            label = _label(match.group(2))
            if label is not None:
                found.setdefault(label, int(match.group(1)))
    return found


def _first_words(labels: dict[str, int]) -> dict[str, int]:
    """The first word of a two-word label, when no other label starts with it ("severely" for
    "severely toxic", but not "very" of "very poor" beside "very toxic")."""
    points: dict[str, set[int]] = {}
    for label, point in labels.items():
        points.setdefault(label.split()[0], set()).add(point)
    return {word: next(iter(found)) for word, found in points.items() if len(found) == 1 and word not in labels}


def words_pattern(name: str) -> str:
    """A name's words with any separator or none (``guides_to_human_care``, ``guides to human care``, ``guidesToHumanCare``)."""
    words = [re.escape(w) for w in re.split(r"[\s_\-.]+", normalise(name).text.strip()) if w]
    return r"[\s_\-.]*".join(words)


def squashed(text: str) -> str:
    """A key or label as written, without its separators: what two spellings of one name share."""
    return re.sub(r"[\s_\-.]+", "", text)


@dataclass(frozen=True)
class FieldVocab:
    """One rated field: its name, scale and the words that stand for its values."""

    name: str
    key: str  # the key, squashed
    low: int
    high: int
    words: dict[str, str]  # squashed value word -> the value it stands for ("five" -> "5", "excellent" -> "5")
    phrases: tuple[str, ...]  # the value words as written

    def value(self, token: str) -> str | None:
        """The value a number or word stands for on this field, or ``None`` if it is none of its values."""
        if token[:1].isdigit() or token[:1] in "+-":
            try:
                number = float(token)
            except ValueError:
                return None
            if not self.low <= number <= self.high:
                return None
            return str(int(number)) if number.is_integer() else str(number)
        return self.words.get(squashed(token))


def _field_vocab(judge_field: JudgeField, labels: dict[str, int]) -> FieldVocab:
    key = squashed(normalise(judge_field.name).text)
    if judge_field.choices:
        words = {c: re.sub(r"[\s_\-]+", "_", c) for c in judge_field.choices}
        return FieldVocab(judge_field.name, key, 0, len(judge_field.choices), _by_squashed(words), tuple(words))
    own = {**scale_labels(judge_field.description, bare=True), **labels}
    points = {**{w: n for n, w in enumerate(NUMBER_WORDS)}, **_first_words(own), **own}
    words = {w: str(n) for w, n in points.items() if judge_field.low <= n <= judge_field.high}
    return FieldVocab(judge_field.name, key, judge_field.low, judge_field.high, _by_squashed(words), tuple(words))


def _by_squashed(words: dict[str, str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for word, value in words.items():
        found.setdefault(squashed(word), value)
    return found


@dataclass(frozen=True)
class RubricVocab:
    """Every rated field of a rubric, and one pattern for their keys and one for their value words."""

    fields: dict[str, FieldVocab]  # by squashed key
    keys: str  # regex alternation of every key (longest first)
    value_words: str  # regex alternation of every value word (longest first)


@lru_cache(maxsize=128)
def rubric_vocab(rubric: Rubric) -> RubricVocab:
    """The vocabulary of ``rubric``'s rated fields (text fields rate nothing and are left out)."""
    labels = scale_labels(rubric.instructions)
    fields = {}
    for judge_field in rubric.fields:
        if not judge_field.text:
            vocab = _field_vocab(judge_field, labels)
            fields[vocab.key] = vocab
    keys = sorted({words_pattern(f.name) for f in fields.values()}, key=len, reverse=True)
    words = sorted({words_pattern(w) for f in fields.values() for w in f.phrases}, key=len, reverse=True)
    return RubricVocab(fields, "|".join(keys), "|".join(words))
