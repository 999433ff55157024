"""The one multiple-choice answer parser used by every MCQ task in trustmh.

Models state a choice in many ways: ``"B"``, ``"(B)"``, ``"**B. Anorexia nervosa**"``,
``"Answer: b"``, ``'{"choice": "B"}'``, or only the option's text. The parser tries, in order
of how explicit the statement is:

1. a JSON object with an ``answer``/``choice`` key;
2. an explicit statement (``answer: X``, ``answer is: X``, ``option X``, ``choose X``, ``the
   best option here is X`` with a capital X);
3. the output *starting* with a letter (``B``, ``(B)``, ``B)``, ``B.``, ``**B**``);
4. the text of exactly one option appearing in the output.

Within a level, two different letters make the answer ambiguous, and an ambiguous or
missing answer is returned as ``None`` (the caller counts it as unparsed), never guessed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence

_JSON_OBJECT = re.compile(r"\{[^{}]*\}", re.DOTALL)
_MARKUP = re.compile(r"[*_`#]+")


def _explicit_patterns(letters: str) -> list[re.Pattern[str]]:
    cls = f"[{letters}{letters.lower()}]"
    return [
        re.compile(
            rf"\b(?:final\s+)?(?:answer|choice|option|selection)\s*(?:is\s*:|is|:|=|-)?\s*(?:option\s*)?[\(\[]?({cls})\b(?![\w'])",
            re.IGNORECASE,
        ),
        re.compile(rf"\b(?:i\s+(?:would\s+)?(?:choose|pick|select))\s+(?:option\s*)?[\(\[]?({cls})\b(?![\w'])", re.IGNORECASE),
        # "The most ethical option to choose is D." The letter must be a capital here, so
        # "the best option is a hard one" is not read as A.
        re.compile(
            rf"\b(?:answer|choice|option)\b[^.\n]{{0,40}}?\bis\s*:?\s*[\(\[]?((?-i:[{letters}]))\b(?![\w'])",
            re.IGNORECASE,
        ),
    ]


def _leading_pattern(letters: str) -> re.Pattern[str]:
    # The output starts with the letter, optionally bracketed and followed by punctuation,
    # e.g. "B", "(B)", "B) text", "B. text", "B: text". A leading word like "A patient"
    # must not match, hence the requirement that the letter is not followed by a letter.
    return re.compile(rf"^\s*[\(\[]?([{letters}])(?:[\)\]\.:,]|\s*$|\s+-|\s*\n)")


def _from_json(text: str, letters: str) -> str | None:
    for blob in _JSON_OBJECT.findall(text):
        try:
            obj = json.loads(blob)
        except json.JSONDecodeError:
            continue
        if not isinstance(obj, dict):
            continue
        for key in ("answer", "choice", "option"):
            value = obj.get(key)
            if isinstance(value, str):
                stripped = value.strip().strip("()[]. ").upper()
                if len(stripped) == 1 and stripped in letters:
                    return stripped
    return None


def _unique(found: Sequence[str]) -> str | None | bool:
    """The single letter found; False if none; None if several different letters."""
    distinct = {letter.upper() for letter in found}
    if not distinct:
        return False
    if len(distinct) > 1:
        return None
    return distinct.pop()


def _from_option_text(text: str, options: Mapping[str, str]) -> str | None:
    lowered = " ".join(text.lower().split())
    hits = [
        letter
        for letter, option in options.items()
        if option and len(option.strip()) > 2 and " ".join(option.lower().split()) in lowered
    ]
    # Keep only the longest matches: "Depression" inside "Major depression" is not a 2nd hit.
    hits = [
        h
        for h in hits
        if not any(
            h != other and options[h].lower() in options[other].lower() for other in hits
        )
    ]
    return hits[0] if len(hits) == 1 else None


def parse_choice(
    text: str | None,
    letters: str = "ABCD",
    options: Mapping[str, str] | None = None,
) -> str | None:
    """Return the single letter in ``letters`` the output chooses, or ``None``.

    >>> parse_choice("**B) Pituitary adenoma**", "ABCDEFG")
    'B'
    >>> parse_choice("The answer is (c).", "ABCD")
    'C'
    >>> parse_choice("A or B, hard to say", "ABCD") is None
    True
    """
    if not text or not text.strip():
        return None
    letters = letters.upper()
    found = _from_json(text, letters)
    if found:
        return found
    plain = _MARKUP.sub("", text)
    explicit: list[str] = []
    for pattern in _explicit_patterns(letters):
        explicit.extend(match.group(1) for match in pattern.finditer(plain))
    result = _unique(explicit)
    if result is not False:
        return result  # type: ignore[return-value]
    leading = _leading_pattern(letters).match(plain)
    if leading:
        return leading.group(1).upper()
    if options:
        return _from_option_text(plain, options)
    return None
