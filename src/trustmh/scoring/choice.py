"""The one multiple-choice answer parser used by every MCQ task in trustmh.

Models state a choice in many ways: ``"B"``, ``"(B)"``, ``"**B. Anorexia nervosa**"``,
``"Answer: b"``, ``'{"choice": "B"}'``, ``"答案：B"``, ``"选B"``, or only the option's text.
The parser tries, in order of how explicit the statement is:

1. a JSON object with an ``answer``/``choice``/``option`` key (or the caller's keys), whose
   value is itself parsed (``"B"``, ``"(B)"``, ``"B. Anorexia"``);
2. an explicit statement: ``answer: X``, ``the answer is (X)``, ``correct option X``,
   ``I would choose X``, ``go with X``, ``\\boxed{X}``, Chinese ``答案：X`` / ``答案是X`` /
   ``选X`` / ``选择X``; then, weaker, an uppercase letter closing a clause after
   ``is``/``it's``/``be`` ("I think it is B.");
3. the output *starting* with a letter (``B``, ``(B)``, ``B)``, ``B.``, ``B:``, ``**B**``,
   ``B、``) — unless the output lists several lettered lines (an echo of the options);
4. the text of exactly one option appearing in the output.

Within a level, two different letters make the answer ambiguous (``"A or B"``,
``"Answer: B or C"``), and an ambiguous or missing answer is returned as ``None`` (the
caller counts it as unparsed), never guessed. An ambiguous level is final: a later, less
explicit level is not consulted.

Letters and words: ``a``/``A`` and ``I`` are also English words. A lowercase ``a``/``i`` only
counts when it stands alone (``answer: a``, ``(a)``), so "I would choose a different
approach" names no option; an uppercase ``I`` followed by a lowercase word ("the answer I
think is B") is the pronoun; and an output starting with "A patient ..." is a sentence,
not option A.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Literal

DEFAULT_JSON_KEYS: tuple[str, ...] = ("answer", "choice", "option")

_MARKUP = re.compile(r"[*_`#]+")
_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL | re.IGNORECASE)
# Punctuation that may close a letter, ASCII and full-width.
_CLOSERS = r"\)\]\.:,;!?）】．：，、。；"
_OPENERS = r"\(\[（【"
# What may stand between the keyword and the letter: "is", ":", "=", "-", "would be", ...
_LINK = r"(?:\s*(?:is|was|would\s+be|should\s+be|will\s+be|:|=|-|–|—)\s*)*"
_KEYWORDS = r"(?:final\s+|correct\s+|best\s+|right\s+|most\s+likely\s+)?(?:answer|choice|option|selection)s?"
_VERBS = r"(?:choose|chose|pick|select|go\s+with|going\s+with|opt\s+for)"
_ZH_KEYWORDS = r"(?:正确答案|最佳答案|答案|选项|应选择|应选|选择|我选|选)"
_ZH_LINK = r"(?:\s*(?:应该是|应为|是|为|：|:))*\s*"


def _letter_class(letters: str) -> str:
    return f"[{letters}{letters.lower()}]"


def _explicit_patterns(letters: str) -> list[re.Pattern[str]]:
    cls = _letter_class(letters)
    tail = rf"[{_OPENERS}]?\s*({cls})(?![A-Za-z0-9'’])"
    return [
        re.compile(rf"\b{_KEYWORDS}\b{_LINK}(?:option\s*|choice\s*)?{tail}", re.IGNORECASE),
        re.compile(rf"\b{_VERBS}\s+(?:option\s*|choice\s*|answer\s*)?{tail}", re.IGNORECASE),
        re.compile(rf"\\boxed\{{\s*(?:\\text\{{)?\s*({cls})\s*\}}", re.IGNORECASE),
        re.compile(rf"{_ZH_KEYWORDS}{_ZH_LINK}(?:选项)?{tail}", re.IGNORECASE),
    ]


def _copula_pattern(letters: str) -> re.Pattern[str]:
    # "I think it is B." / "It's (C)." / "would be D": weaker than an explicit statement,
    # so only an uppercase letter closing the clause counts.
    return re.compile(rf"\b(?:is|it's|it’s|be)\s+[{_OPENERS}]?([{letters}])(?:[{_CLOSERS}]|\s*$)", re.MULTILINE)


def _leading_pattern(letters: str) -> re.Pattern[str]:
    # The output starts with the letter, optionally bracketed and followed by punctuation,
    # e.g. "B", "(B)", "B) text", "B. text", "B: text", "B、". A leading word like
    # "A patient" must not match, hence the requirement that the letter is followed by
    # punctuation, a dash, a line break or the end of the output.
    cls = _letter_class(letters)
    return re.compile(rf"^\s*[{_OPENERS}]?({cls})(?:[{_CLOSERS}]|\s*$|\s+[-–—]|\s*\n)")


def _line_markers(letters: str) -> re.Pattern[str]:
    return re.compile(rf"^\s*[{_OPENERS}]?([{letters}])[{_CLOSERS}]", re.MULTILINE)


def _or_follows(letters: str) -> re.Pattern[str]:
    """``" or C"``, ``"/C"``, ``" and (C)"``, ``", C"`` right after a letter: two answers, not one.

    The second letter is uppercase (a lowercase "and a" is an article), and an ``A`` or
    ``I`` followed by a lowercase word ("and I think") is a word, not a letter.
    """
    others = "".join(ch for ch in letters if ch not in "AI")
    words = "".join(ch for ch in letters if ch in "AI")
    alternatives = [f"[{others}]"] if others else []
    if words:
        alternatives.append(rf"[{words}](?!\s+[a-z])")
    second = "(?:" + "|".join(alternatives) + ")"
    return re.compile(
        rf"^[\)\]）】]?\s*(?:(?i:or|and)|/|&|,|，|、|或者|或|和)\s*(?:(?i:option)\s*)?[{_OPENERS}]?\s*{second}(?![A-Za-z])"
    )


def _is_word_not_letter(letter: str, after: str) -> bool:
    """True when ``letter`` followed by ``after`` reads as an English word (a, I)."""
    if letter in "ai":
        # A lowercase a/i counts only when it stands alone: end, punctuation, bracket.
        return not re.match(rf"^\s*(?:$|[{_CLOSERS}]|\n)", after)
    if letter == "I":
        return bool(re.match(r"^\s+[a-z]", after)) or after.startswith(("'", "’"))
    return False


def _explicit_letters(plain: str, letters: str) -> list[str] | None:
    """Letters stated explicitly; ``None`` if a statement names two ("B or C")."""
    found: list[str] = []
    or_follows = _or_follows(letters)
    for pattern in _explicit_patterns(letters):
        for match in pattern.finditer(plain):
            letter = match.group(1)
            after = plain[match.end(1) :]
            if _is_word_not_letter(letter, after):
                continue
            if or_follows.match(after):
                return None
            found.append(letter.upper())
    return found


def extract_json_objects(text: str) -> list[dict]:
    """JSON objects found in ``text``: fenced blocks first, then each ``{...}`` span."""
    objects: list[dict] = []
    candidates = [m.strip() for m in _FENCE.findall(text)]
    candidates += re.findall(r"\{[^{}]*\}", text, re.DOTALL)
    for blob in candidates:
        try:
            obj = json.loads(blob)
        except json.JSONDecodeError:
            continue
        if isinstance(obj, dict):
            objects.append(obj)
    return objects


def json_value(text: str, keys: Sequence[str]) -> str | None:
    """The first string (or number) value under one of ``keys`` (case-insensitive)."""
    wanted = [k.lower() for k in keys]
    for obj in extract_json_objects(text):
        lowered = {str(k).strip().lower(): v for k, v in obj.items()}
        for key in wanted:
            value = lowered.get(key)
            if isinstance(value, (str, int)) and not isinstance(value, bool):
                return str(value)
    return None


def _from_json(
    text: str, letters: str, keys: Sequence[str], options: Mapping[str, str] | None
) -> str | None | Literal[False]:
    """The letter of a JSON answer; False if there is no JSON answer at all."""
    value = json_value(text, keys)
    if value is None:
        return False
    stripped = value.strip().strip("()[]（）. ").upper()
    if len(stripped) == 1 and stripped in letters:
        return stripped
    # A value like "B. Pituitary adenoma" or "Pituitary adenoma": parse it, without JSON.
    return _parse_plain(value, letters, options)


def _unique(found: Sequence[str]) -> str | None | Literal[False]:
    """The single letter found; False if none; None if several different letters."""
    distinct = {letter.upper() for letter in found}
    if not distinct:
        return False
    if len(distinct) > 1:
        return None
    return distinct.pop()


def _is_cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def _from_option_text(text: str, options: Mapping[str, str]) -> str | None:
    lowered = " ".join(text.lower().split())

    def usable(option: str) -> bool:
        stripped = option.strip()
        # Two Chinese characters are a word (e.g. 尴尬); two Latin letters are not.
        return len(stripped) > 2 or (len(stripped) == 2 and _is_cjk(stripped))

    norm = {letter: " ".join(str(option).lower().split()) for letter, option in options.items() if option}
    hits = [letter for letter, option in norm.items() if usable(option) and option in lowered]
    # Keep only the longest matches: "Depression" inside "Major depression" is not a 2nd hit.
    hits = [h for h in hits if not any(h != other and norm[h] in norm[other] for other in hits)]
    return hits[0].upper() if len(hits) == 1 else None


def _parse_plain(text: str, letters: str, options: Mapping[str, str] | None) -> str | None:
    plain = _MARKUP.sub("", text)
    explicit = _explicit_letters(plain, letters)
    if explicit is None:
        return None
    result = _unique(explicit)
    if result is not False:
        return result
    or_follows = _or_follows(letters)
    copula = _unique(
        [
            m.group(1)
            for m in _copula_pattern(letters).finditer(plain)
            if m.group(1) != "I" and not or_follows.match(plain[m.end(1) :])
        ]
    )
    if copula is not False:
        return copula
    leading = _leading_pattern(letters).match(plain)
    if leading and not _is_word_not_letter(leading.group(1), plain[leading.end(1) :]):
        # "A) ...\nB) ...\nC) ..." is the option list echoed back, not an answer.
        markers = {m.upper() for m in _line_markers(letters).findall(plain)}
        if len(markers) <= 1 and not _or_follows(letters).match(plain[leading.end(1) :]):
            return leading.group(1).upper()
        return None
    if options:
        return _from_option_text(plain, options)
    return None


def parse_choice(
    text: str | None,
    letters: str = "ABCD",
    options: Mapping[str, str] | None = None,
    json_keys: Sequence[str] = DEFAULT_JSON_KEYS,
) -> str | None:
    """Return the single letter in ``letters`` the output chooses, or ``None``.

    ``options`` maps letters to option texts (enables the option-text fallback);
    ``json_keys`` are the JSON keys read first.

    >>> parse_choice("**B) Pituitary adenoma**", "ABCDEFG")
    'B'
    >>> parse_choice("The answer is (c).", "ABCD")
    'C'
    >>> parse_choice("A or B, hard to say", "ABCD") is None
    True
    >>> parse_choice("答案：B", "ABCD")
    'B'
    """
    if not text or not text.strip():
        return None
    letters = letters.upper()
    found = _from_json(text, letters, json_keys, options)
    if found is not False:
        return found
    return _parse_plain(text, letters, options)


def letters_for(count: int) -> str:
    """The first ``count`` option letters: ``letters_for(4) == "ABCD"``."""
    if not 1 <= count <= 26:
        raise ValueError(f"a question needs 1-26 options, not {count}")
    return "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:count]
