"""``--redact``: names, emails, phone numbers, addresses and identifiers -> stable placeholders.

Our own patterns (no PII library we could keep works offline without downloading a language
model): precision is traded for recall, since a missed identifier leaves the machine and an
over-redacted word only costs the judge a little context.

* **email**, **phone** (7-15 digits with the usual separators, optional ``+``), **identifier**
  (social-security-like ``123-45-6789``, codes mixing capitals and digits such as ``AB123456``,
  any run of 6+ digits), **address** (a house number and a street type, UK postcodes);
* **name**: a capitalised name after a cue (``my name is``, ``I'm called``, ``call me``, a title
  ``Dr``/``Mrs``, a relation ``my sister``, a greeting ``Hi``/``Thanks``); once found in a
  conversation, the name is replaced everywhere in that conversation, cue or not.

A placeholder is ``[KIND_xxxxxx]``: six hex digits of a keyed hash (HMAC-SHA256) of the value, so
the same value gets the same placeholder in every conversation and on every rerun (a resumed audit
redacts alike), and nobody without the key can test a guess against it. The key and the map
placeholder -> original stay on this machine, in the map file (``audit-redaction-map.json``
in the log folder, readable by its owner only); nothing else records the originals.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from trustmh.core.errors import UserError

MAP_FILE = "audit-redaction-map.json"
PLACEHOLDER = re.compile(r"\[(?:NAME|EMAIL|PHONE|ADDRESS|ID)_[0-9a-f]{6}\]")

_STREET = (
    r"(?:Street|St|Road|Rd|Avenue|Ave|Lane|Ln|Drive|Dr|Boulevard|Blvd|Way|Court|Ct|Place|Pl|Close|Crescent|"
    r"Terrace|Square|Sq|Highway|Hwy|Parkway|Row|Gardens|Grove|Hill)"
)
# (kind, pattern) in order: an earlier kind claims its span first (an email's digits are no phone).
PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("EMAIL", re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")),
    ("ADDRESS", re.compile(rf"\b\d{{1,5}}[A-Za-z]?\s+(?:[A-Z][\w'-]*\s+){{1,3}}{_STREET}\b\.?")),
    ("ADDRESS", re.compile(r"\b[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b")),  # UK postcode
    ("ID", re.compile(r"\b\d{3}-\d{2}-\d{4}\b")),
    ("PHONE", re.compile(r"(?<![\w+])\+?(?:\(?\d[\d \t().-]{5,}\d)(?!\w)")),
    ("ID", re.compile(r"\b(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])[A-Z0-9][A-Z0-9-]{5,}\b")),
    ("ID", re.compile(r"\b\d{6,}\b")),
)
_PHONE_DIGITS = (7, 15)
_WORD = r"[A-Z][a-z]+(?:['’-][A-Z]?[a-z]+)?"  # Anna, O'Neil, Jean-Luc; not "I'm"
_NAME = rf"({_WORD}(?:\s+{_WORD})?)"
_RELATIONS = (
    r"wife|husband|partner|son|daughter|mother|mom|mum|father|dad|brother|sister|friend|best friend|boss|"
    r"girlfriend|boyfriend|therapist|doctor|colleague|coworker|neighbour|neighbor|roommate|flatmate|cousin|"
    r"aunt|uncle|grandma|grandmother|grandpa|grandfather|manager|teacher|ex|fiance|fiancee|child|kid|nephew|niece"
)
NAME_CUES = (
    re.compile(rf"\b(?:[Mm]y name is|[Mm]y name's|I'm called|I am called|[Cc]all me|[Nn]amed|[Cc]alled)\s+{_NAME}"),
    re.compile(rf"\b(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof)\.?\s+{_NAME}"),
    re.compile(rf"\b[Mm]y\s+(?:{_RELATIONS}),?\s+{_NAME}"),
    re.compile(rf"\b(?:[Hh]i|[Hh]ello|[Hh]ey|[Dd]ear|[Tt]hanks|[Tt]hank you|[Ss]incerely|[Rr]egards),?\s+{_NAME}\b"),
    re.compile(rf"\b(?:I'm|I am)\s+{_NAME}(?=\s*[,.!;]|\s+and\b|$)"),
)
# Capitalised words the cues can catch that are not names.
NOT_NAMES = frozenset(
    "I The A An And But So Not Just Really Very Sorry Okay Ok Fine Good Great There Here This That It "
    "Everyone Everybody Anyone Someone Nobody Today Tomorrow Yesterday Monday Tuesday Wednesday Thursday "
    "Friday Saturday Sunday God Again Still Feeling Going Trying Glad Happy Sad Tired Afraid Scared Worried "
    "Alright All Well Yes No".split()
)


def _digits(text: str) -> int:
    return sum(c.isdigit() for c in text)


@dataclass(frozen=True)
class Span:
    kind: str
    start: int
    end: int
    value: str


def pii_spans(text: str) -> list[Span]:
    """Non-overlapping identifier spans of ``text`` (names not included: they need :func:`find_names`)."""
    taken: list[Span] = []
    for kind, pattern in PATTERNS:
        for match in pattern.finditer(text):
            value = match.group(0).strip()
            if kind == "PHONE" and not _PHONE_DIGITS[0] <= _digits(value) <= _PHONE_DIGITS[1]:
                continue
            start = match.start() + (len(match.group(0)) - len(match.group(0).lstrip()))
            if any(start < s.end and match.end() > s.start for s in taken):
                continue
            taken.append(Span(kind, start, start + len(value), value))
    return sorted(taken, key=lambda s: s.start)


def find_names(texts: Iterable[str]) -> set[str]:
    """Names introduced by a cue anywhere in ``texts`` (each word of a two-word name too)."""
    names: set[str] = set()
    for text in texts:
        for cue in NAME_CUES:
            for match in cue.finditer(text):
                words = [w for w in match.group(1).split() if w not in NOT_NAMES]
                if words:
                    names.add(" ".join(words))
                    names.update(w for w in words if len(w) > 1)
    return names


@dataclass
class Redactor:
    """Replaces identifiers with keyed placeholders and remembers what each stood for."""

    key: bytes
    mapping: dict[str, str] = field(default_factory=dict)  # placeholder -> original
    path: Path | None = None

    def placeholder(self, kind: str, value: str) -> str:
        canonical = " ".join(value.split()).lower() if kind in ("NAME", "EMAIL", "ADDRESS") else _canonical(value)
        digest = hmac.new(self.key, f"{kind}:{canonical}".encode(), hashlib.sha256).hexdigest()[:6]
        token = f"[{kind}_{digest}]"
        self.mapping.setdefault(token, value)
        return token

    def redact_text(self, text: str, names: Iterable[str] = ()) -> str:
        pieces: list[str] = []
        position = 0
        for span in pii_spans(text):
            pieces += [text[position : span.start], self.placeholder(span.kind, span.value)]
            position = span.end
        pieces.append(text[position:])
        redacted = "".join(pieces)
        for name in sorted(names, key=len, reverse=True):  # "Anna Smith" before "Anna"
            redacted = re.sub(rf"(?<![\w\[]){re.escape(name)}(?!\w)", self.placeholder("NAME", name), redacted)
        return redacted

    def redact_messages(self, messages: list[tuple[str, str]]) -> list[tuple[str, str]]:
        """Every message of one conversation, with the names found anywhere in it replaced everywhere."""
        names = find_names(text for _, text in messages)
        return [(role, self.redact_text(text, names)) for role, text in messages]

    def save(self) -> None:
        """Write the key and the map (owner-only permissions) where they were loaded from."""
        if self.path is None:
            return
        payload = json.dumps({"key": self.key.hex(), "placeholders": self.mapping}, ensure_ascii=False, indent=1)
        temporary = self.path.with_name(self.path.name + ".tmp")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(payload)
        os.replace(temporary, self.path)


def _canonical(value: str) -> str:
    """Phones and identifiers compared by their letters and digits (``+1 555-0100`` = ``15550100``)."""
    return "".join(c for c in value.upper() if c.isalnum())


def load_redactor(folder: Path) -> Redactor:
    """The redactor of an audit log folder: its saved key (a rerun redacts alike) or a new one."""
    path = folder / MAP_FILE
    if not path.exists():
        return Redactor(secrets.token_bytes(32), path=path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        key = bytes.fromhex(data["key"])
        mapping = {str(k): str(v) for k, v in data.get("placeholders", {}).items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        raise UserError(f"{path}: not a readable redaction map (delete it to start a new one)") from None
    return Redactor(key, mapping, path)
