"""Seeded text perturbations at intensities 0 (unchanged) to 5 (pure functions).

Kinds:

* character level (one edit inside each selected word): ``case_flip``, ``duplicate_char``,
  ``insert_symbol``, ``swap_chars`` (neighbours), ``delete_char``;
* word level: ``swap_words`` (selected neighbouring word pairs change order), ``typos``
  (one keyboard-neighbour substitution per selected word), ``repeat_words``;
* sentence level: ``prepend_distractor`` / ``append_distractor``: ``intensity`` neutral
  sentences of our own (:data:`DISTRACTORS`) before / after the editable text.

Character and word kinds edit a share :data:`INTENSITY_RATES` of the eligible words (at
least one). The words are taken from one seeded order of all eligible sites, and each
site's edit is seeded by the site itself, so intensity ``k+1`` makes the edits of ``k`` and
more: the amount of change does not go down as intensity goes up.

Only ``regions`` (character ranges) are edited; everything outside them (instructions,
option letters, answer cues) is kept verbatim. Same text, kind, intensity and seed give
the same output on every platform (``random.Random`` seeded with a string).
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Sequence

CHAR_KINDS = ("case_flip", "duplicate_char", "insert_symbol", "swap_chars", "delete_char")
WORD_KINDS = ("swap_words", "typos", "repeat_words")
SENTENCE_KINDS = ("prepend_distractor", "append_distractor")
KINDS: tuple[str, ...] = CHAR_KINDS + WORD_KINDS + SENTENCE_KINDS
MAX_INTENSITY = 5
INTENSITY_RATES = {0: 0.0, 1: 0.05, 2: 0.10, 3: 0.20, 4: 0.35, 5: 0.50}
SYMBOLS = "!@#$%^&*~+=|"

# Neutral, content-free sentences: they must not change what the text is about.
DISTRACTORS: tuple[str, ...] = (
    "The weather today is mild with a few clouds.",
    "The library closes at six on weekdays.",
    "A new bus timetable starts next month.",
    "The kettle in the kitchen was replaced last week.",
    "Some trees along the street have started to lose their leaves.",
    "The museum is adding a room for old maps.",
    "The parking lot is being repainted this weekend.",
    "Tomatoes grow best with plenty of sunlight.",
)

_KEYBOARD_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
_WORD = re.compile(r"[^\W\d_]+")
Region = tuple[int, int]


def _keyboard_neighbours() -> dict[str, str]:
    position = {ch: (r, c) for r, row in enumerate(_KEYBOARD_ROWS) for c, ch in enumerate(row)}
    neighbours: dict[str, str] = {}
    for ch, (r, c) in position.items():
        near = [other for other, (r2, c2) in position.items() if other != ch and abs(r - r2) <= 1 and abs(c - c2) <= 1]
        neighbours[ch] = "".join(sorted(near))
    return neighbours


KEYBOARD_NEIGHBOURS = _keyboard_neighbours()


def check_args(kind: str, intensity: int) -> None:
    if kind not in KINDS:
        raise ValueError(f"unknown perturbation kind {kind!r}; expected one of {', '.join(KINDS)}")
    if not isinstance(intensity, int) or not 0 <= intensity <= MAX_INTENSITY:
        raise ValueError(f"perturbation intensity must be an integer from 0 to {MAX_INTENSITY}, not {intensity!r}")


def _rng(seed: int | str, *parts: object) -> random.Random:
    return random.Random(":".join(str(p) for p in (seed, *parts)))


def _edit_word(word: str, kind: str, rng: random.Random) -> str:
    """One character-level edit inside ``word`` (``len(word) >= 2`` for swap/delete)."""
    if kind == "swap_chars":
        # Swapping two equal letters ("ee") would change nothing: pick a differing pair.
        candidates = [i for i in range(len(word) - 1) if word[i] != word[i + 1]]
        if not candidates:
            return word
        p = rng.choice(candidates)
        return word[:p] + word[p + 1] + word[p] + word[p + 2 :]
    p = rng.randrange(len(word))
    if kind == "case_flip":
        flipped = word[p].swapcase()
        return word[:p] + (flipped if len(flipped) == 1 else word[p]) + word[p + 1 :]
    if kind == "duplicate_char":
        return word[: p + 1] + word[p:]
    if kind == "insert_symbol":
        return word[:p] + rng.choice(SYMBOLS) + word[p:]
    if kind == "delete_char":
        return word[:p] + word[p + 1 :]
    if kind == "typos":
        near = KEYBOARD_NEIGHBOURS.get(word[p].lower())
        if not near:
            return word
        typo = rng.choice(near)
        return word[:p] + (typo.upper() if word[p].isupper() else typo) + word[p + 1 :]
    if kind == "repeat_words":
        return f"{word} {word}"
    raise ValueError(kind)


def _sites(text: str, regions: Sequence[Region], kind: str) -> list[Region]:
    """Character ranges the kind may edit: words (or neighbouring word pairs) inside regions."""
    min_len = 2 if kind in ("swap_chars", "delete_char") else 1
    sites: list[Region] = []
    for start, end in regions:
        words = [(m.start() + start, m.end() + start) for m in _WORD.finditer(text[start:end])]
        if kind == "swap_words":
            sites += [(words[i][0], words[i + 1][1]) for i in range(0, len(words) - 1, 2)]
        else:
            sites += [w for w in words if w[1] - w[0] >= min_len]
    return sites


def _edit_site(segment: str, kind: str, rng: random.Random) -> str:
    if kind != "swap_words":
        return _edit_word(segment, kind, rng)
    words = list(_WORD.finditer(segment))
    first, second = words[0], words[-1]
    return second.group() + segment[first.end() : second.start()] + first.group()


def _distractors(count: int, seed: int | str) -> str:
    order = list(DISTRACTORS)
    _rng(seed, "distractors").shuffle(order)
    return " ".join(order[i % len(order)] for i in range(count))


def edits_count(n_sites: int, intensity: int) -> int:
    """How many sites an intensity edits: a share of them, at least one from intensity 1."""
    if intensity == 0 or n_sites == 0:
        return 0
    return min(n_sites, max(1, math.ceil(INTENSITY_RATES[intensity] * n_sites)))


def perturb_regions(text: str, regions: Sequence[Region], kind: str, intensity: int, seed: int | str = 0) -> str:
    """``text`` with only the characters inside ``regions`` perturbed (regions sorted, disjoint)."""
    check_args(kind, intensity)
    regions = [(max(0, s), min(len(text), e)) for s, e in regions if e > s]
    if intensity == 0 or not regions:
        return text
    if kind in SENTENCE_KINDS:
        extra = _distractors(intensity, seed)
        if kind == "prepend_distractor":
            start = regions[0][0]
            return text[:start] + extra + " " + text[start:]
        end = regions[-1][1]
        return text[:end] + " " + extra + text[end:]
    sites = _sites(text, regions, kind)
    order = list(range(len(sites)))
    _rng(seed, kind, "order").shuffle(order)
    chosen = sorted(order[: edits_count(len(sites), intensity)])
    pieces: list[str] = []
    cursor = 0
    for index in chosen:
        start, end = sites[index]
        pieces.append(text[cursor:start])
        pieces.append(_edit_site(text[start:end], kind, _rng(seed, kind, "site", start)))
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces)


def perturb(text: str, kind: str, intensity: int, seed: int | str = 0) -> str:
    """Perturb the whole of ``text``."""
    return perturb_regions(text, [(0, len(text))], kind, intensity, seed)


def perturb_span(text: str, span: str, kind: str, intensity: int, seed: int | str = 0) -> str:
    """Perturb only the first occurrence of ``span`` in ``text`` (the whole text if absent)."""
    start = text.find(span) if span else -1
    if start < 0:
        return perturb(text, kind, intensity, seed)
    return perturb_regions(text, [(start, start + len(span))], kind, intensity, seed)


# Without a span, these stay intact: MCQ option markers ("A.", "(B)", "C)") at line starts and
# answer cue lines ("Answer:", "Category:"), so a perturbation never changes the choices offered.
_PROTECTED = re.compile(r"(?im)^[ \t]*(?:\(?[A-J][.)][ \t]|(?:answer|category|level|option|options)\b[^\n]*:[ \t]*$)")


def default_regions(text: str) -> list[Region]:
    """Editable ranges of ``text``: everything except :data:`_PROTECTED` matches."""
    regions: list[Region] = []
    cursor = 0
    for match in _PROTECTED.finditer(text):
        if match.start() > cursor:
            regions.append((cursor, match.start()))
        cursor = match.end()
    if cursor < len(text):
        regions.append((cursor, len(text)))
    return regions
