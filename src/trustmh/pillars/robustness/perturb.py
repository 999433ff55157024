"""Seeded text perturbations at intensities 0 (unchanged) to 5 (pure functions).

Kinds:

* character level (one edit inside each selected word): ``case_flip``, ``duplicate_char``,
  ``insert_symbol``, ``swap_chars`` (neighbours), ``delete_char``, ``homoglyph`` (a Latin
  letter replaced by a Greek or Cyrillic look-alike: Greek alpha for a, Cyrillic o for o, ...);
* word level: ``swap_words`` (selected neighbouring word pairs change order), ``typos``
  (one keyboard-neighbour substitution per selected word), ``repeat_words``,
  ``delete_words`` (each selected word is removed with the whitespace after it);
* sentence level: ``prepend_distractor`` / ``append_distractor``: ``intensity`` neutral
  sentences of our own (:data:`DISTRACTORS`) before / after the editable text;
* ``stacked``: TrustMH-Bench's perturbation-intensity control (its repository's
  ``images/perturbation_intensity.png``): a character stage (each selected word gets one
  character edit of a seeded kind, homoglyphs included), then a word stage (neighbour swaps,
  then deletions) on its output, then a sentence stage (prepended distractors). Intensity 1
  is the character stage, 2 adds the word stage, 3 adds one prepended sentence (the figure's
  three steps); 4 and 5 run all three stages with more edits and ``intensity - 2`` sentences
  (:data:`STACK_STAGES`).

Character and word kinds edit a share :data:`INTENSITY_RATES` of the eligible words (at
least one). The words are taken from one seeded order of all eligible sites, and each
site's edit is seeded by the site itself, so intensity ``k+1`` makes the edits of ``k`` and
more: the amount of change does not go down as intensity goes up.

Only ``regions`` (character ranges) are edited; everything outside them (instructions,
option letters, answer cues) is kept verbatim. Same text, kind, intensity and seed give
the same output on every platform (``random.Random`` seeded with a string).
"""

from __future__ import annotations

import bisect
import math
import random
import re
from collections.abc import Sequence

CHAR_KINDS = ("case_flip", "duplicate_char", "insert_symbol", "swap_chars", "delete_char", "homoglyph")
WORD_KINDS = ("swap_words", "typos", "repeat_words", "delete_words")
SENTENCE_KINDS = ("prepend_distractor", "append_distractor")
STACKED = "stacked"
KINDS: tuple[str, ...] = CHAR_KINDS + WORD_KINDS + SENTENCE_KINDS + (STACKED,)
MAX_INTENSITY = 5
INTENSITY_RATES = {0: 0.0, 1: 0.05, 2: 0.10, 3: 0.20, 4: 0.35, 5: 0.50}
SYMBOLS = "!@#$%^&*~+=|"
# Latin letter -> a Greek (U+03xx) or Cyrillic (U+04xx) letter that renders (nearly) the same.
HOMOGLYPHS: dict[str, str] = {
    "a": "\u03b1",  # Greek alpha
    "o": "\u043e",  # Cyrillic o
    "e": "\u0435",  # Cyrillic ie
    "c": "\u0441",  # Cyrillic es
    "p": "\u0440",  # Cyrillic er
    "x": "\u0445",  # Cyrillic ha
    "y": "\u0443",  # Cyrillic u
    "i": "\u0456",  # Cyrillic i (Ukrainian)
    "s": "\u0455",  # Cyrillic dze
    "j": "\u0458",  # Cyrillic je
    "A": "\u0391",  # Greek Alpha
    "B": "\u0392",  # Greek Beta
    "E": "\u0395",  # Greek Epsilon
    "H": "\u0397",  # Greek Eta
    "I": "\u0399",  # Greek Iota
    "K": "\u039a",  # Greek Kappa
    "M": "\u039c",  # Greek Mu
    "N": "\u039d",  # Greek Nu
    "O": "\u039f",  # Greek Omicron
    "P": "\u03a1",  # Greek Rho
    "T": "\u03a4",  # Greek Tau
    "X": "\u03a7",  # Greek Chi
    "C": "\u0421",  # Cyrillic Es
}
# Stacked intensity -> its stages, in order (TrustMH-Bench: character -> word -> sentence).
STACK_STAGES: dict[int, tuple[str, ...]] = {
    1: ("character",),
    2: ("character", "word"),
    3: ("character", "word", "sentence"),
    4: ("character", "word", "sentence"),
    5: ("character", "word", "sentence"),
}
MIXED_CHARS = "mixed_chars"  # the stacked character stage: a seeded character kind per word

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


def _eligible(word: str, kind: str) -> bool:
    """Whether ``kind`` can change ``word``."""
    if kind in ("swap_chars", "delete_char"):
        return len(word) >= 2
    if kind == "homoglyph":
        return any(ch in HOMOGLYPHS for ch in word)
    return True


def _edit_word(word: str, kind: str, rng: random.Random) -> str:
    """One character-level edit inside ``word`` (``len(word) >= 2`` for swap/delete)."""
    if kind == MIXED_CHARS:
        return _edit_word(word, rng.choice([k for k in CHAR_KINDS if _eligible(word, k)]), rng)
    if kind == "homoglyph":
        p = rng.choice([i for i, ch in enumerate(word) if ch in HOMOGLYPHS])
        return word[:p] + HOMOGLYPHS[word[p]] + word[p + 1 :]
    if kind == "delete_words":
        return ""
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
    """Character ranges the kind may edit: words (or neighbouring word pairs) inside regions.

    A deleted word takes the whitespace after it (inside its region) along, so no run of
    spaces is left behind.
    """
    sites: list[Region] = []
    for start, end in regions:
        words = [(m.start() + start, m.end() + start) for m in _WORD.finditer(text[start:end])]
        if kind == "swap_words":
            sites += [(words[i][0], words[i + 1][1]) for i in range(0, len(words) - 1, 2)]
        elif kind == "delete_words":
            for word_start, word_end in words:
                after = text[word_end:end]
                sites.append((word_start, word_end + len(after) - len(after.lstrip())))
        else:
            sites += [w for w in words if _eligible(text[w[0] : w[1]], kind)]
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


def _add_distractors(text: str, regions: Sequence[Region], kind: str, count: int, seed: int | str) -> str:
    extra = _distractors(count, seed)
    if kind == "prepend_distractor":
        start = regions[0][0]
        return text[:start] + extra + " " + text[start:]
    end = regions[-1][1]
    return text[:end] + " " + extra + text[end:]


def _edit_sites(
    text: str, regions: Sequence[Region], kind: str, intensity: int, seed: int | str
) -> tuple[str, list[Region]]:
    """Character/word-level edits; returns the new text and where ``regions`` now lie in it."""
    sites = _sites(text, regions, kind)
    order = list(range(len(sites)))
    _rng(seed, kind, "order").shuffle(order)
    chosen = sorted(order[: edits_count(len(sites), intensity)])
    pieces: list[str] = []
    cursor = 0
    shifts: list[tuple[int, int]] = []  # (old end of an edited site, total length change up to it)
    delta = 0
    for index in chosen:
        start, end = sites[index]
        edited = _edit_site(text[start:end], kind, _rng(seed, kind, "site", start))
        pieces += [text[cursor:start], edited]
        delta += len(edited) - (end - start)
        shifts.append((end, delta))
        cursor = end
    pieces.append(text[cursor:])

    def moved(position: int) -> int:
        # A region bound never falls strictly inside a site: it moves by the total change of
        # the sites ending at or before it (``shifts`` is in text order).
        before = bisect.bisect_right([site_end for site_end, _ in shifts], position)
        return position + (shifts[before - 1][1] if before else 0)

    return "".join(pieces), [(moved(s), moved(e)) for s, e in regions]


def _stacked(text: str, regions: Sequence[Region], intensity: int, seed: int | str) -> str:
    """TrustMH-Bench's stacking: character, then word, then sentence stage (:data:`STACK_STAGES`)."""
    stages = STACK_STAGES[intensity]
    text, regions = _edit_sites(text, regions, MIXED_CHARS, intensity, f"{seed}:character")
    if "word" in stages:
        for kind in ("swap_words", "delete_words"):
            text, regions = _edit_sites(text, regions, kind, intensity, f"{seed}:word")
    if "sentence" in stages:
        text = _add_distractors(text, regions, "prepend_distractor", intensity - 2, f"{seed}:sentence")
    return text


def perturb_regions(text: str, regions: Sequence[Region], kind: str, intensity: int, seed: int | str = 0) -> str:
    """``text`` with only the characters inside ``regions`` perturbed (regions sorted, disjoint)."""
    check_args(kind, intensity)
    regions = [(max(0, s), min(len(text), e)) for s, e in regions if e > s]
    if intensity == 0 or not regions:
        return text
    if kind in SENTENCE_KINDS:
        return _add_distractors(text, regions, kind, intensity, seed)
    if kind == STACKED:
        return _stacked(text, regions, intensity, seed)
    return _edit_sites(text, regions, kind, intensity, seed)[0]


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


def clip_regions(regions: Sequence[Region], start: int, end: int) -> list[Region]:
    """The parts of ``regions`` inside ``[start, end)``."""
    clipped = [(max(s, start), min(e, end)) for s, e in regions]
    return [(s, e) for s, e in clipped if e > s]
