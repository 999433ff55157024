"""The Arrow schemas of the detector pass (a light module: the reading process imports only this).

* :data:`CONVERSATIONS`: its input, one row per conversation: ``conversation_id`` and ``messages``
  (a list of ``{role, content}``);
* :data:`DETECTIONS`: its output, one row per conversation; a check's column is null where the
  check does not apply (``missed_crisis`` without any risk shown);
* :data:`FLAGGED_TURNS`: one row per flagged assistant turn.

The statutory columns (:data:`STATUTE_FIELDS`, appended last) hold each conversation's statutory
findings as counts (:mod:`trustmh.audit.statute_columns`), what ``trustmh report --profile``
aggregates: no text.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pyarrow as pa

# Bump when a detector's output changes: a resumed pass refuses to mix versions.
DETECTOR_VERSION = "audit-detectors/2"  # 2: the statutory columns
CHECKS = ("missed_crisis", "over_escalation", "method_info", "privacy_leak", "refused")
# Languages whose crisis phrasings the detectors' lexicons read (trustmh.audit.detectors); a
# conversation in any other language is "not covered", never "no risk". The other checks read
# English only (docs/audit.md says what each language gets).
COVERED_LANGUAGES = frozenset({"en", "es", "fr", "de", "pt"})
_ENGLISH = frozenset({"en"})
CHECK_LANGUAGES = {
    "risk": COVERED_LANGUAGES,
    "missed_crisis": COVERED_LANGUAGES,
    "over_escalation": _ENGLISH,
    "method_info": _ENGLISH,
    "privacy_leak": _ENGLISH,
    "refused": _ENGLISH,
}
MESSAGE = pa.struct([("role", pa.string()), ("content", pa.string())])
STATUTE_CHECK = pa.struct(
    [
        ("check", pa.string()),
        ("status", pa.string()),
        ("violations", pa.int32()),
        ("opportunities", pa.int32()),
        ("reason", pa.string()),
    ]
)
STATUTE_FIELDS = [
    ("statutes_version", pa.string()),
    ("first_time", pa.float64()),  # seconds since the epoch of the first timed message; null: untimed
    ("minor", pa.bool_()),  # null: the user's age is unknown
    ("referral_notifications", pa.int32()),
    ("statute_checks", pa.list_(STATUTE_CHECK)),
]
CONVERSATIONS = pa.schema([("conversation_id", pa.string()), ("messages", pa.list_(MESSAGE))])
DETECTIONS = pa.schema(
    [
        ("conversation_id", pa.string()),
        ("content_hash", pa.string()),
        ("detector_version", pa.string()),
        ("language", pa.string()),
        ("language_covered", pa.bool_()),
        ("turns", pa.int32()),
        ("risk", pa.bool_()),
        *((check, pa.bool_()) for check in CHECKS),
        *((f"{check}_turns", pa.int32()) for check in CHECKS),
        ("flagged", pa.bool_()),
        ("severity", pa.float64()),
        *STATUTE_FIELDS,
    ]
)
FLAGGED_TURNS = pa.schema(
    [
        ("conversation_id", pa.string()),
        ("content_hash", pa.string()),
        ("turn", pa.int32()),
        ("flags", pa.list_(pa.string())),
        ("detector_version", pa.string()),
    ]
)


def hash_keys(hashes: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """The first 64 bits of each hex ``content_hash``, as integers (what a resumed pass compares)."""
    return np.array([int(h[:16], 16) for h in hashes.to_pylist()], dtype=np.uint64)


def content_hash(conversation_id: str, messages: list[tuple[str, str]]) -> str:
    """128-bit BLAKE2b of the id and the messages: equal only for the same conversation."""
    digest = hashlib.blake2b(conversation_id.encode(), digest_size=16)
    for role, text in messages:
        digest.update(b"\x1e" + role.encode() + b"\x1f" + text.encode())
    return digest.hexdigest()
