"""Parser for answers that name a class label (e.g. ``suicidal_ideation``, ``Ideation``).

Labels are matched through aliases (``"self harm"`` -> ``self-harm``), on a normalised copy
of the output (lower case, markup removed, ``_``/``-`` read as spaces). In order of how
explicit the statement is:

1. an explicit ``category:`` / ``label:`` / ``answer:`` / ``level:`` followed by a label;
2. the output *starting* with a label (not hedged: "X or Y");
3. exactly one distinct label mentioned anywhere.

Two different labels at the same level make the answer ambiguous: ``None`` (unparsed),
never a guess.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Literal

_MARKUP = re.compile(r"[*`#>\"'\[\]()]+")
_SEPARATORS = re.compile(r"[_\-/]+")
_EXPLICIT_CUE = r"(?:category|label|answer|level|classification|class|severity)\s*(?:is|:|=|-)?\s*"


def normalise_label_text(text: str) -> str:
    plain = _SEPARATORS.sub(" ", _MARKUP.sub(" ", text.lower()))
    return " ".join(plain.split())


def _alias_pattern(aliases: Mapping[str, str]) -> re.Pattern[str]:
    # Longest aliases first so "no crisis" wins over a shorter alias inside it.
    keys = sorted({normalise_label_text(a) for a in aliases}, key=len, reverse=True)
    return re.compile(r"\b(" + "|".join(re.escape(k) for k in keys) + r")\b")


@functools.lru_cache(maxsize=64)
def _compiled(aliases: tuple[tuple[str, str], ...]) -> tuple[dict[str, str], re.Pattern[str], re.Pattern[str]]:
    """(normalised alias -> label, the alias pattern, the explicit-cue pattern), once per alias
    table rather than once per answer parsed."""
    lookup = {normalise_label_text(a): c for a, c in aliases}
    pattern = _alias_pattern(dict(aliases))
    return lookup, pattern, re.compile(_EXPLICIT_CUE + pattern.pattern)


def _single(found: list[str]) -> str | None | Literal[False]:
    distinct = list(dict.fromkeys(found))
    if not distinct:
        return False
    return distinct[0] if len(distinct) == 1 else None


def parse_label(text: str | None, aliases: Mapping[str, str]) -> str | None:
    """The one label the output states (canonical name), or ``None``.

    ``aliases`` maps every accepted spelling to its canonical label; include each
    canonical label as an alias of itself.

    >>> parse_label("**Self harm** - the user describes cutting", {"self harm": "self-harm", "no crisis": "no_crisis"})
    'self-harm'
    """
    if not text or not text.strip():
        return None
    lookup, pattern, explicit = _compiled(tuple(aliases.items()))
    plain = normalise_label_text(text)
    result = _single([lookup[m.group(1)] for m in explicit.finditer(plain)])
    if result is not False:
        return result
    leading = re.match(r"\s*(?:\d+[.)]\s*)?" + pattern.pattern, plain)
    if leading:
        # "Indicator or Ideation" (or "Indicator/Ideation") hedges between two labels.
        if re.match(r"\s*(?:or|and|,)?\s*" + pattern.pattern, plain[leading.end() :]):
            return None
        return lookup[leading.group(1)]
    result = _single([lookup[m.group(1)] for m in pattern.finditer(plain)])
    return None if result is False else result
