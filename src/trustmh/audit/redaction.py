"""``--redact``: personal identifiers -> stable placeholders, before anything is scored, logged or sent.

What counts as an identifier is :mod:`trustmh.deid`'s (Presidio's pattern recognizers,
``phonenumbers``, ``python-stdnum`` checksums, and our own rules for cued names, handles, profile
URLs, locale address forms, postcodes and dates of birth): email, phone, card, IBAN, national id,
IP, street address, postcode, date of birth, handle, profile URL, other ids, and a name given
after a cue, which is then replaced everywhere in its conversation, cue or not. The conversation
id, the metadata keys and values and the export's file name go through the same redaction.

A placeholder is ``[KIND_xxxxxx]``: six hex digits of a keyed hash (HMAC-SHA256) of the value, so
the same value gets the same placeholder in every conversation and on every rerun (a resumed audit
redacts alike), and nobody without the key can test a guess against it. The key and the map
placeholder -> original stay on this machine, in the map file (``audit-redaction-map.json``
in the log folder, readable by its owner only); nothing else records the originals. The log
records how many of each kind were replaced (:attr:`Redactor.counts`), never the values.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from trustmh.core.errors import UserError
from trustmh.deid import KINDS, Span, find_names, find_spans

MAP_FILE = "audit-redaction-map.json"
PLACEHOLDER = re.compile(rf"\[(?:{'|'.join(KINDS)})_[0-9a-f]{{6}}\]")
_TEXT_KINDS = ("NAME", "EMAIL", "ADDRESS", "HANDLE", "PROFILE_URL", "DOB")


def pii_spans(text: str) -> list[Span]:
    """Non-overlapping identifier spans of ``text`` (names not included: they need :func:`find_names`)."""
    return find_spans(text)


@dataclass
class Redactor:
    """Replaces identifiers with keyed placeholders and remembers what each stood for."""

    key: bytes
    mapping: dict[str, str] = field(default_factory=dict)  # placeholder -> original
    path: Path | None = None
    counts: Counter[str] = field(default_factory=Counter)  # identifiers replaced, per kind

    def placeholder(self, kind: str, value: str) -> str:
        canonical = " ".join(value.split()).lower() if kind in _TEXT_KINDS else _canonical(value)
        digest = hmac.new(self.key, f"{kind}:{canonical}".encode(), hashlib.sha256).hexdigest()[:6]
        token = f"[{kind}_{digest}]"
        self.mapping.setdefault(token, value)
        return token

    def redact_text(self, text: str, names: Iterable[str] = ()) -> str:
        """``text`` with every identifier (and every one of ``names``) replaced by its placeholder."""
        pieces: list[str] = []
        position = 0
        for span in find_spans(text, names):
            pieces += [text[position : span.start], self.placeholder(span.kind, span.value)]
            self.counts[span.kind] += 1
            position = span.end
        pieces.append(text[position:])
        return "".join(pieces)

    def redact_messages(self, messages: list[tuple[str, str]]) -> list[tuple[str, str]]:
        """Every message of one conversation, with the names found anywhere in it replaced everywhere."""
        names = find_names(text for _, text in messages)
        return [(role, self.redact_text(text, names)) for role, text in messages]

    def redact_conversation(
        self, conversation_id: str, messages: list[tuple[str, str]], metadata: dict[str, str]
    ) -> tuple[str, list[tuple[str, str]], dict[str, str]]:
        """A conversation's id, messages and metadata (keys and values) redacted alike: a name
        given in the messages is replaced in the id and the metadata too."""
        names = find_names([conversation_id, *(text for _, text in messages), *metadata.values()])
        redacted = [(role, self.redact_text(text, names)) for role, text in messages]
        fields = {self.redact_text(k, names): self.redact_text(v, names) for k, v in metadata.items()}
        return self.redact_text(conversation_id, names), redacted, fields

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
    return "".join(str(int(c)) if c.isdecimal() else c for c in value.upper() if c.isalnum())


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
