"""The counts behind each statutory item, whatever they are read from: audit logs one conversation
at a time (:mod:`.evidence`) or a detector pass's Parquet rows grouped in Arrow
(:mod:`.pass_evidence`). Both add into the same tallies, so a profile gives the same values for
the same conversations either way.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any, Protocol

from trustmh.audit.statutes.checks import COMPLIANT, NOT_APPLICABLE, NOT_CHECKABLE, VIOLATION
from trustmh.core.errors import UserError
from trustmh.regulatory.profiles import Item
from trustmh.stats.intervals import wilson_interval

Z95 = NormalDist().inv_cdf(0.975)
AGE_UNKNOWN = "the user's age is unknown (no minor / age_band metadata)"


def violation_share(flagged: int, checked: int) -> dict[str, float | None]:
    """The share of checked conversations with a violation and its Wilson 95% CI (None: none checked)."""
    low, high = wilson_interval(flagged, checked)
    return {
        "share_with_violation": flagged / checked if checked else None,
        "ci_low": None if math.isnan(low) else low,
        "ci_high": None if math.isnan(high) else high,
    }


def population_status(item: Item, minor: bool | None) -> str | None:
    """None when a conversation is in the item's population, else the status it gets."""
    if item.population != "minors":
        return None
    if minor is None:
        return NOT_CHECKABLE
    return None if minor else NOT_APPLICABLE


@dataclass
class CheckTally:
    """Conversations of one check item by outcome (``count`` conversations at a time)."""

    checked: int = 0
    flagged: int = 0
    violations: int = 0
    opportunities: int = 0
    not_applicable: int = 0
    reasons: Counter[str] = field(default_factory=Counter)

    def add(
        self,
        item: Item,
        minor: bool | None,
        result: dict[str, Any],
        count: int = 1,
    ) -> None:
        """``result``: the check's status, reason and (summed over the ``count`` conversations) events."""
        outside = population_status(item, minor)
        status = outside or result["status"]
        if status == NOT_APPLICABLE:
            self.not_applicable += count
        elif status == NOT_CHECKABLE:
            self.reasons[result["reason"] if outside is None else AGE_UNKNOWN] += count
        elif status in (COMPLIANT, VIOLATION):
            self.checked += count
            self.flagged += count if status == VIOLATION else 0
            self.violations += int(result["violations"])
            self.opportunities += int(result["opportunities"])

    def value(self, item: Item) -> dict[str, Any]:
        """The item's measured value: counts, the share of checked conversations with a violation
        and its Wilson 95% CI, and what could not be checked and why."""
        return {
            "measure": item.measure,
            "conversations_checked": self.checked,
            "conversations_with_violation": self.flagged,
            "violations": self.violations,
            "opportunities": self.opportunities,
            **violation_share(self.flagged, self.checked),
            "not_applicable": self.not_applicable,
            "not_checkable": {
                "conversations": sum(self.reasons.values()),
                "reasons": dict(sorted(self.reasons.items())),
            },
        }


@dataclass
class ReferralSums:
    """Sums of the per-conversation referral notification counts :math:`x_i` of the period."""

    n: int = 0  # conversations
    observed: int = 0  # sum x_i
    squares: int = 0  # sum x_i^2
    with_notification: int = 0  # conversations with x_i > 0

    def add(self, other: ReferralSums) -> None:
        self.n += other.n
        self.observed += other.observed
        self.squares += other.squares
        self.with_notification += other.with_notification

    @classmethod
    def of(cls, counts: list[int]) -> ReferralSums:
        return cls(len(counts), sum(counts), sum(c * c for c in counts), sum(c > 0 for c in counts))

    def value(self, item: Item, population: int | None, corrected: dict[str, Any] | None) -> dict[str, Any]:
        """Observed and estimated notifications: :math:`\\hat T = N \\bar x`,
        :math:`s^2 = (n \\sum x_i^2 - (\\sum x_i)^2) / (n (n - 1))` (exact in integers),
        :math:`se = N s / \\sqrt{n} \\sqrt{1 - n/N}` and the normal 95% CI, floored at the observed count."""
        n, observed = self.n, self.observed
        if population is not None and population < n:
            raise UserError(f"--population {population}: fewer than the {n} audited conversations of the period")
        total = population if population is not None else n
        if n == 0:
            estimate, low, high = None, None, None
        else:
            variance = (n * self.squares - observed * observed) / (n * (n - 1)) if n > 1 else 0.0
            se = total * math.sqrt(variance / n) * math.sqrt(max(0.0, 1 - n / total))
            estimate = total * observed / n
            low, high = max(float(observed), estimate - Z95 * se), estimate + Z95 * se
        return {
            "measure": item.measure,
            "observed": observed,
            "conversations_audited": n,
            "conversations_in_period": total,
            "basis": "census of the period's conversations" if population is None else "uniform random sample",
            "estimate": estimate,
            "ci_low": low,
            "ci_high": high,
            "conversations_with_notification": self.with_notification,
            "corrected": corrected,
        }


class CountedElsewhere(Protocol):
    """Counts read from somewhere other than audit logs (a detector pass's rows: :mod:`.pass_evidence`)."""

    referrals: ReferralSums
    in_period: int
    scope_checked: int
    scope_flagged: int

    def check_tally(self, item: Item) -> CheckTally: ...
