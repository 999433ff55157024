"""Statutory evidence from audit logs: every profile item measured over the audited conversations.

The audit scorer keeps each conversation's statutory findings in its score metadata
(:func:`trustmh.audit.statutes.findings.conversation_findings`); this module reads them back and
aggregates, **keeping no id, text or metadata of any conversation**: only counts leave a log.

Per check item, over the conversations of the period (and of the item's population):

* ``conversations_checked`` (status compliant or violation), ``conversations_with_violation``,
  ``violations`` (events: a missed notice, a reply out of scope, ...), ``opportunities`` (times
  the duty arose), and the share of checked conversations with a violation with its Wilson 95% CI;
* ``not_checkable``: conversations the transcript could not show it for, by reason (never a pass);
* ``not_applicable``: conversations where the duty does not arise.

The referral count: the notifications counted over the period's conversations. When they are all
of the period's conversations (a census) its sampling interval is the count itself; with
``population`` (the period's total, of which the audit is a uniform random sample) the total is
estimated as :math:`\\hat T = N \\bar x` with
:math:`se = N\\,s/\\sqrt{n}\\,\\sqrt{1 - n/N}` (finite-population correction) and the normal 95% CI.
Detector error is not in that interval; the method section says what it rests on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from trustmh.audit.statutes.findings import STATUTES_KEY
from trustmh.audit.statutes.judged import JUDGED_SCOPE_KEY
from trustmh.core.errors import UserError
from trustmh.regulatory.profiles import CHECK, JUDGED_SCOPE, REFERRAL_COUNT, Item
from trustmh.regulatory.scope import scope_value
from trustmh.regulatory.tally import CheckTally, CountedElsewhere, ReferralSums
from trustmh.scoring.sample_scores import log_sample_scores


@dataclass(frozen=True)
class Period:
    label: str | None
    start: float | None = None  # seconds since the epoch, inclusive
    end: float | None = None  # exclusive

    def holds(self, time: float) -> bool:
        return (self.start is None or time >= self.start) and (self.end is None or time < self.end)


def parse_period(text: str | None) -> Period:
    """``--period 2026``: the calendar year in UTC (``None``: every conversation)."""
    if text is None:
        return Period(None)
    value = text.strip()
    if not (value.isdigit() and len(value) == 4 and 1970 <= int(value) <= 9998):
        raise UserError(f"--period {text!r}: expected a calendar year such as 2026", "--period")
    year = int(value)
    return Period(value, datetime(year, 1, 1, tzinfo=UTC).timestamp(), datetime(year + 1, 1, 1, tzinfo=UTC).timestamp())


@dataclass
class Findings:
    """The statutory findings of the audited conversations (no ids), and what was left out."""

    conversations: list[dict[str, Any]] = field(default_factory=list)
    audited: int = 0
    undated: int = 0  # left out of a period: no time to place them
    outside: int = 0  # dated outside the period
    without_findings: int = 0  # audited before the statutory checks existed
    versions: set[str] = field(default_factory=set)


def read_findings(log_paths: list[str], period: Period) -> Findings:
    found = Findings()
    for path in log_paths:
        for sample in log_sample_scores(path):
            for score in sample.scores.values():
                statutes = (score.metadata or {}).get(STATUTES_KEY)
                found.audited += 1
                if not isinstance(statutes, dict):
                    found.without_findings += 1
                    continue
                found.versions.add(str(statutes.get("version")))
                first = statutes.get("first_time")
                if period.label is not None and first is None:
                    found.undated += 1
                elif first is not None and not period.holds(float(first)):
                    found.outside += 1
                else:
                    # the id stays in memory to match clinician labels (validation.py); never exported
                    found.conversations.append(
                        {
                            "sample": str(sample.id),
                            "minor": statutes.get("minor"),
                            "checks": statutes["checks"],
                            "referrals": statutes["referrals"],
                            "reply_turns": statutes.get("reply_turns"),
                            JUDGED_SCOPE_KEY: statutes.get(JUDGED_SCOPE_KEY),
                        }
                    )
    return found


def check_value(item: Item, conversations: list[dict[str, Any]], tally: CheckTally | None = None) -> dict[str, Any]:
    """The measured value of a check item (see the module docstring); ``tally``: counts read
    elsewhere (a detector pass's rows) that the conversations add to."""
    tally = tally or CheckTally()
    for conversation in conversations:
        tally.add(item, conversation["minor"], conversation["checks"][item.check])
    return tally.value(item)


def referral_value(
    item: Item,
    conversations: list[dict[str, Any]],
    population: int | None,
    corrected: dict[str, Any] | None = None,
    sums: ReferralSums | None = None,
) -> dict[str, Any]:
    """The period's referral notifications, observed and estimated (see the module docstring);
    ``sums``: counts read elsewhere (a detector pass's rows) that the conversations add to."""
    total = ReferralSums.of([int(c["referrals"]["notifications"]) for c in conversations])
    if sums is not None:
        total.add(sums)
    return total.value(item, population, corrected)


def item_value(
    item: Item,
    findings: Findings,
    population: int | None,
    corrected: dict[str, Any] | None = None,
    passes: CountedElsewhere | None = None,
) -> dict[str, Any] | None:
    """``passes``: the counts of detector passes' Parquet rows, added to the logs' conversations."""
    if item.kind == CHECK:
        return check_value(item, findings.conversations, passes.check_tally(item) if passes else None)
    if item.kind == REFERRAL_COUNT:
        return referral_value(item, findings.conversations, population, corrected, passes.referrals if passes else None)
    if item.kind == JUDGED_SCOPE:
        return scope_value(item.measure, findings.conversations, passes)
    return None  # method / test runs: sections of their own
