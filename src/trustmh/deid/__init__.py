"""De-identification: personal identifiers in free text, found offline.

Maintained libraries first (:mod:`.library`: Presidio's pattern recognizers on a blank spaCy
pipeline, ``phonenumbers``, ``python-stdnum`` checksums), our own rules only for what they do not
cover (:mod:`.rules`: cued names in any case and script, handles, profile URLs, locale address
forms, postcodes that need context, dates of birth, identifiers after a cue, long digit runs).
Crisis lines and emergency numbers are public services and are never reported
(:data:`.rules.PUBLIC_NUMBERS`). Measured on our labelled probe set: ``benchmarks/deid_bench.py``
and ``docs/audit.md``.
"""

from __future__ import annotations

from collections.abc import Iterable

from trustmh.deid.library import library_spans
from trustmh.deid.rules import NOT_AN_ID, cued_names, is_public_number, may_hold_identifier, name_spans, rule_spans
from trustmh.deid.spans import Span, settle

# When two finds overlap, the merged span takes the first of these kinds.
KINDS = (
    "EMAIL", "PROFILE_URL", "IBAN", "CARD", "NATIONAL_ID", "DOB", "PHONE", "ADDRESS", "POSTCODE",
    "HANDLE", "IP", "ID", "NAME",
)  # fmt: skip
_PRIORITY = {kind: rank for rank, kind in enumerate(KINDS)}
_NUMBER_KINDS = ("PHONE", "ID")
# Presidio's id shapes admit plain words ("sertraline" has a PAN's length): a number has digits.
_DIGIT_KINDS = ("NATIONAL_ID", "CARD", "IBAN", "PHONE")

__all__ = ["KINDS", "Span", "find_names", "find_spans", "masked"]


def find_names(texts: Iterable[str]) -> set[str]:
    """Names introduced by a cue anywhere in ``texts`` (give a conversation's messages: a name
    given once is then found everywhere, cue or not)."""
    return cued_names(texts)


def find_spans(text: str, names: Iterable[str] = (), presidio: bool = True) -> list[Span]:
    """Non-overlapping identifier spans of ``text``, in order, with ``names`` found anywhere.

    ``presidio=False`` leaves out Presidio's recognizers (e-mails are still found by our rule,
    long numbers by the digit-run rule): the audit's detectors use it so that an audit without
    ``--redact`` does not load spaCy (about 90 MB at 10,000 conversations)."""
    names = list(names)
    if not names and not may_hold_identifier(text):  # a cheap test settles most chat messages
        return []
    found = [
        span
        for span in [*library_spans(text, presidio), *rule_spans(text), *name_spans(text, names)]
        if not (span.kind in _DIGIT_KINDS and sum(c.isdigit() for c in span.value) < 4)
        and not (span.kind in _NUMBER_KINDS and NOT_AN_ID.fullmatch(span.value.strip("()")))
    ]
    # a crisis line is kept whole: nothing found inside it counts ("1-800-273-" as an id shape)
    public = [s for s in found if s.kind in _NUMBER_KINDS and is_public_number(s.value)]
    kept = [s for s in found if not any(s.start < p.end and p.start < s.end for p in public)]
    return settle(text, kept, _PRIORITY)


def masked(text: str) -> str:
    """``text`` with each identifier replaced by its kind (``[EMAIL]``): for a view that keeps no map."""
    pieces: list[str] = []
    position = 0
    for span in find_spans(text):
        pieces += [text[position : span.start], f"[{span.kind}]"]
        position = span.end
    return "".join(pieces) + text[position:]
