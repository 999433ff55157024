"""Judged text as a reader sees it, for finding ratings planted in it (:mod:`trustmh.scoring.planted`).

A language model reads through spellings a pattern does not: ``&#58;`` is a colon, ``\\n`` in a
JSON string is a line break, ``Ｅｍｐａｔｈｙ`` and ``Еmpathy`` (Cyrillic Е) are "Empathy", an em
dash or an arrow separates a key from its value as a colon does, a line break or forty spaces
are one gap, ``<td>Empathy</td><td>5</td>`` is a table cell beside another. Rather than chase each
spelling, :func:`normalise` rewrites the text once into one canonical form, and the rating
patterns are written against that form only:

1. escapes decoded: HTML entities (``&#53;``, ``&colon;``), JSON/Python escapes (``\\u0035``,
   ``\\n``, ``\\"``), percent-encoded punctuation (``%3A``);
2. each character folded (:func:`fold`): Unicode compatibility forms (NFKC's mapping: fullwidth,
   mathematical, circled and superscript forms become ASCII), combining and enclosing marks and
   invisible format characters (zero-width space and joiners, BOM, soft hyphen, bidi controls)
   dropped, look-alike Cyrillic and Greek letters mapped to Latin, case folded, every dash to
   ``-``, every quotation mark to ``"``, every arrow to ``>``, colon look-alikes to ``:``;
3. markup flattened: an HTML element's tags become a space (their attribute values kept, so
   ``<meta name="Empathy" content="5">`` reads ``empathy 5``), a tag not in HTML (``<Empathy>``)
   keeps its name; a dot leader (``Empathy ..... 5``) reads as a colon; a run of stars
   (``★★★★★``) as its count; every whitespace run, line breaks included, becomes one space.

Every character of the result remembers the span of the original text it came from
(:meth:`Folded.span`), so what is found in the normalised text is removed from the original.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

# Letters that render like Latin ones (Unicode's confusables for the Latin alphabet, the common
# subset: Cyrillic and Greek lower and upper case). NFKD does not map them: they are letters of
# their own script.
_LOOK_ALIKES = str.maketrans(
    {
        **dict.fromkeys("аАɑα", "a"),
        **dict.fromkeys("ВвβЬ", "b"),
        **dict.fromkeys("сСϲ", "c"),
        **dict.fromkeys("ԁ", "d"),
        **dict.fromkeys("еЕεΕѐё", "e"),
        **dict.fromkeys("ғ", "f"),
        **dict.fromkeys("ɡ", "g"),
        **dict.fromkeys("һНΗ", "h"),
        **dict.fromkeys("іІΙιӏ", "i"),
        **dict.fromkeys("јЈ", "j"),
        **dict.fromkeys("кКΚκ", "k"),
        **dict.fromkeys("ⅼ", "l"),
        **dict.fromkeys("МмΜ", "m"),
        **dict.fromkeys("ΝпՈ", "n"),
        **dict.fromkeys("оОοΟσ", "o"),
        **dict.fromkeys("рРρΡ", "p"),
        **dict.fromkeys("ԛ", "q"),
        **dict.fromkeys("г", "r"),
        **dict.fromkeys("ѕЅ", "s"),
        **dict.fromkeys("тТτΤ", "t"),
        **dict.fromkeys("υս", "u"),
        **dict.fromkeys("ѵνⅴ", "v"),
        **dict.fromkeys("ԝѡ", "w"),
        **dict.fromkeys("хХχΧ", "x"),
        **dict.fromkeys("уУγΥ", "y"),
        **dict.fromkeys("Ζ", "z"),
    }
)
# Punctuation NFKD leaves alone but a reader takes for its ASCII counterpart.
_QUOTES = frozenset("«»‹›„‚“”‘’‛‟「」『』〝〞〟❝❞❛❜")
_COLONS = frozenset("∶꞉˸ː︓﹕")
_EQUALS = frozenset("≔꞊⩵⹀")
_STARS = frozenset("★⭐🌟✩✪✫✬✭✮✯✰")
_EMPTY_STARS = frozenset("☆")
_BLANKS = frozenset("\u2800\u3164\u115f\u1160\uffa0\u180e")  # render as nothing, are not Cf
_LINE_BREAKS = frozenset("\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")  # kept until tables are read
_STAR = "\x01"  # a filled star while folding (counted in the last step)
_EMPTY_STAR = "\x02"


@dataclass(frozen=True)
class Folded:
    """``text`` rewritten for matching; for each of its characters the original span it came from."""

    text: str
    starts: tuple[int, ...] | None = None  # None: one character for one, positions unchanged
    ends: tuple[int, ...] | None = None

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The span in the original text of ``text[start:end]``."""
        if self.starts is None or self.ends is None:
            return start, end
        return self.starts[start], self.ends[end - 1]

    def origin(self, index: int) -> tuple[int, int]:
        return (
            (index, index + 1) if self.starts is None or self.ends is None else (self.starts[index], self.ends[index])
        )


Segments = list[tuple[str, int, int]]  # (new text, start, end of the folded text it stands for)


def _rewrite(folded: Folded, pattern: re.Pattern[str], replace: Callable[[re.Match[str]], str | Segments]) -> Folded:
    """``folded`` with each match of ``pattern`` replaced: by a string, whose characters take the
    whole match's span, or by segments, each taking the span of the folded text it names."""
    text = folded.text
    found = [(m, replace(m)) for m in pattern.finditer(text)]
    found = [(m, new) for m, new in found if new != m.group(0)]
    if not found:
        return folded
    pieces: list[str] = []
    starts: list[int] = []
    ends: list[int] = []

    def keep(start: int, end: int) -> None:
        for index in range(start, end):
            origin = folded.origin(index)
            starts.append(origin[0])
            ends.append(origin[1])
        pieces.append(text[start:end])

    cursor = 0
    for match, new in found:
        keep(cursor, match.start())
        segments = [(new, match.start(), match.end())] if isinstance(new, str) else new
        for piece, start, end in segments:
            pieces.append(piece)
            starts += [folded.origin(start)[0]] * len(piece)
            ends += [folded.origin(max(start, end - 1))[1]] * len(piece)
        cursor = match.end()
    keep(cursor, len(text))
    return Folded("".join(pieces), tuple(starts), tuple(ends))


# --- 1. escapes ------------------------------------------------------------------------------
_ESCAPE = re.compile(
    r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});?"
    r"|\\u[0-9a-fA-F]{4}|\\x[0-9a-fA-F]{2}|\\[nrtfv\"'/\\]|%[0-9A-Fa-f]{2}"
)
_PERCENT_DECODED = frozenset(" \t\n\"':=-,;|>{}[]()")


def _unescape(match: re.Match[str]) -> str:
    token = match.group(0)
    if token.startswith("&"):
        return html.unescape(token)
    if token.startswith("%"):
        char = chr(int(token[1:], 16))
        return char if char in _PERCENT_DECODED else token
    if token[1] in "ux":
        return chr(int(token[2:], 16))
    return " " if token[1] in "nrtfv" else token[1]


# --- 2. characters -----------------------------------------------------------------------------
@lru_cache(maxsize=4096)
def _fold_char(char: str) -> str:
    if char in _LINE_BREAKS:
        return "\n"
    if char.isspace() or char in _BLANKS:
        return " "
    category = unicodedata.category(char)
    if category == "Cf":  # zero-width space/joiners, BOM, soft hyphen, bidi controls
        return ""
    if category == "Pd" or char in "\u2212\u2043\u2e3a\u2e3b":
        return "-"
    if char in _QUOTES or category in ("Pi", "Pf"):
        return '"'
    if char in _COLONS:
        return ":"
    if char in _EQUALS:
        return "="
    if char in _STARS:
        return _STAR
    if char in _EMPTY_STARS:
        return _EMPTY_STAR
    if category in ("Sm", "So") and "ARROW" in unicodedata.name(char, ""):
        return ">"
    parts = unicodedata.normalize("NFKD", char)
    kept = "".join(c for c in parts if not unicodedata.category(c).startswith("M") and unicodedata.category(c) != "Cf")
    return " " if kept.isspace() else kept.translate(_LOOK_ALIKES).casefold()


_ASCII_BREAKS = str.maketrans(dict.fromkeys("\r\v\f\x1c\x1d\x1e", "\n"))


def fold(text: str) -> Folded:
    """``text`` with each character as a reader sees it (step 2 of the module docstring)."""
    if text.isascii():  # most text: nothing to fold but case and blanks, positions unchanged
        return Folded(re.sub(r"[^\S\n\r\v\f\x1c-\x1e]", " ", text.lower()).translate(_ASCII_BREAKS))
    chars: list[str] = []
    starts: list[int] = []
    for index, char in enumerate(text):
        folded = char.lower() if char.isascii() and not char.isspace() else _fold_char(char)
        chars.append(folded)
        starts += [index] * len(folded)
    ends = tuple(start + 1 for start in starts)
    return Folded("".join(chars), tuple(starts), ends)


def _fold_decoded(decoded: Folded) -> Folded:
    """:func:`fold` of a text whose characters already carry spans (after step 1)."""
    once = fold(decoded.text)
    if decoded.starts is None:
        return once
    starts = [decoded.origin(once.origin(i)[0])[0] for i in range(len(once.text))]
    ends = [decoded.origin(once.origin(i)[0])[1] for i in range(len(once.text))]
    return Folded(once.text, tuple(starts), tuple(ends))


# --- 3. markup and runs ------------------------------------------------------------------------
# Elements of HTML (and the markup a chat renders): their tags separate cells, they name nothing.
HTML_ELEMENTS = frozenset(
    "a abbr b big blockquote body br caption center code col colgroup data dd del details div dl dt em "
    "font footer h1 h2 h3 h4 h5 h6 head header hr html i input ins kbd label li mark meta meter nav ol "
    "option output p pre progress q s samp section select small span strike strong sub summary sup "
    "table tbody td textarea tfoot th thead title tr tt u ul var".split()
)
_TAG = re.compile(r"<!--|-->|<(/?)([a-z][a-z0-9_:.-]*)((?:[^<>\"]|\"[^\"]*\"){0,400})/?>")
# An attribute's value, however quoted (entities are decoded by now: content="&quot;5&quot;" is content=""5"").
_ATTRIBUTE_VALUE = re.compile(r"=\s*(.*?)\s*(?=\s[a-z_:][a-z0-9_:.-]*\s*=|$)", re.DOTALL)


def _tag(match: re.Match[str]) -> str:
    if match.group(2) is None:  # a comment's markers
        return " "
    closing, name, attributes = match.group(1), match.group(2), match.group(3) or ""
    if name in ("td", "th"):  # an HTML table becomes a markdown one (read below)
        return " " if closing else "|"
    if name == "tr":
        return "|" if closing else "\n"
    values = [value.strip("\"' ") for value in _ATTRIBUTE_VALUE.findall(attributes.rstrip("/ "))]
    kept = [] if name in HTML_ELEMENTS or closing else [name]
    return " " + " ".join(kept + values) + " "


_TABLE = re.compile(r"(?m)^[ \t]*\|?[^\n|]*\|[^\n]*(?:\n[ \t]*\|?[^\n|]*\|[^\n]*)+")
_DELIMITER_ROW = re.compile(r"^[\s|:\-]*$")


def _cells(text: str, start: int) -> list[tuple[int, int]]:
    """The (start, end) of each non-empty cell of one table line starting at ``start``."""
    cells, cursor = [], start
    for part in text.split("|"):
        stripped = part.strip()
        if stripped:
            offset = part.index(stripped)
            cells.append((cursor + offset, cursor + offset + len(stripped)))
        cursor += len(part) + 1
    return cells


def _table(match: re.Match[str]) -> Segments:
    """A table kept as written, then read by columns: each body cell after its header cell
    (``| dcs | note |`` over ``| 2 | ok |`` also reads ``dcs: 2 . note: ok .``)."""
    lines, position = [], match.start()
    for line in match.group(0).split("\n"):
        if not _DELIMITER_ROW.match(line):
            lines.append(_cells(line, position))
        position += len(line) + 1
    segments: Segments = [(match.group(0), match.start(), match.end())]
    if len(lines) < 2:
        return segments
    text = match.string
    for row in lines[1:]:
        for (head_start, head_end), (cell_start, cell_end) in zip(lines[0], row, strict=False):
            segments += [(text[head_start:head_end], head_start, head_end), (": ", cell_start, cell_end)]
            segments += [(text[cell_start:cell_end], cell_start, cell_end), (" . ", cell_start, cell_end)]
    segments[0] = (match.group(0) + " . ", match.start(), match.end())
    return segments


_RUNS = re.compile(rf"[{_STAR}{_EMPTY_STAR}]+|\.{{2,}}|\s+")


def _run(match: re.Match[str]) -> str:
    run = match.group(0)
    if run[0] in (_STAR, _EMPTY_STAR):
        return str(run.count(_STAR))
    return ":" if run[0] == "." else " "


@lru_cache(maxsize=256)  # one judged text is checked against each rubric judging it
def normalise(text: str) -> Folded:
    """``text`` rewritten the way a reader takes it (the three steps of the module docstring)."""
    decoded = _rewrite(Folded(text), _ESCAPE, _unescape) if ("&" in text or "\\" in text or "%" in text) else None
    folded = fold(text) if decoded is None else _fold_decoded(decoded)
    if "<" in folded.text or "-->" in folded.text:
        folded = _rewrite(folded, _TAG, _tag)
    if "|" in folded.text:
        folded = _rewrite(folded, _TABLE, _table)
    return _rewrite(folded, _RUNS, _run)
