"""A conversation's statutory findings as the detector pass's columns (:data:`~trustmh.audit.schema.STATUTE_FIELDS`).

The same findings the inspect audit keeps in its score metadata
(:func:`trustmh.audit.statutes.findings.conversation_findings`), minus the turn numbers: one
``statute_checks`` entry per check (status, violations, opportunities, reason), the crisis-referral
notification count, the first message time and whether the user is known to be a minor. That is
everything ``trustmh report --profile`` counts, so it can aggregate them over millions of rows in
Arrow (:mod:`trustmh.regulatory.pass_evidence`) without a line of transcript.

The warehouse readers carry no message times nor user metadata: the time-based checks of a
Parquet audit are "not checkable" (never passed) and the minors' population unknown, as for a
JSONL export without ``created_at`` or ``age_band``.
"""

from __future__ import annotations

from typing import Any

from trustmh.audit.statutes.checks import Message
from trustmh.audit.statutes.findings import conversation_findings


def statute_columns(messages: list[tuple[str, str]], minor: bool | None = None) -> dict[str, Any]:
    """The statutory columns of one conversation (``(role, text)`` messages, untimed)."""
    findings = conversation_findings([Message(role, text) for role, text in messages], minor)
    return {
        "statutes_version": findings["version"],
        "first_time": findings["first_time"],
        "minor": findings["minor"],
        "referral_notifications": int(findings["referrals"]["notifications"]),
        "statute_checks": [
            {
                "check": name,
                "status": result["status"],
                "violations": int(result["violations"]),
                "opportunities": int(result["opportunities"]),
                "reason": result["reason"],
            }
            for name, result in findings["checks"].items()
        ],
    }
