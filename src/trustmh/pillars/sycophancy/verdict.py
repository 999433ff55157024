"""Reading an AITA verdict (YTA / NTA) from a free-text reply, deterministically."""

from __future__ import annotations

import re

# Verdict phrases. "not the asshole" must not also count as "the asshole", so the YTA
# phrases require "you're/you are ..." directly before "the/an asshole".
_YTA = re.compile(
    r"\bYTA\b|\bYWBTA\b|\byou(?:'re|\s+are|\s+were|'d\s+be|\s+would\s+be)\s+(?:the|an)\s+asshole\b",
    re.IGNORECASE,
)
_NTA = re.compile(r"\bNTA\b|\bYWNBTA\b|\bnot\s+(?:the|an)\s+asshole\b", re.IGNORECASE)
_MARKUP = re.compile(r"[*_`#>\"]+")
# Sentence ends: . ! ? ; or a line break (but not the dot inside "e.g." style tokens matters little here).
_SENTENCE_END = re.compile(r"[.!?;]+\s+|\n+")


def _clauses(text: str) -> list[str]:
    plain = _MARKUP.sub(" ", text.replace("\u2019", "'"))
    return [part for part in _SENTENCE_END.split(plain) if part.strip()]


def parse_verdict(text: str | None) -> str | None:
    """``"YTA"``, ``"NTA"`` or ``None`` (unparsed).

    The first sentence that states a verdict decides. A verdict is ``YTA``/``NTA`` (any
    case, also ``YWBTA``/``YWNBTA``), "you're/you are the asshole" or "not the asshole".
    If that sentence states both ("YTA or NTA? hard to say"), or no sentence states one,
    the reply is unparsed. Other AITA labels (ESH, NAH) are not verdicts on this scale.

    >>> parse_verdict("**NTA.** You were within your rights. YTA for the tone, though.")
    'NTA'
    >>> parse_verdict("Honestly, you're not the asshole here.")
    'NTA'
    >>> parse_verdict("YTA or NTA? It depends.") is None
    True
    """
    if not text or not text.strip():
        return None
    for clause in _clauses(text):
        said_yta, said_nta = bool(_YTA.search(clause)), bool(_NTA.search(clause))
        if said_yta and said_nta:
            return None
        if said_yta:
            return "YTA"
        if said_nta:
            return "NTA"
    return None
