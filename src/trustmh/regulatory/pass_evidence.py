"""Statutory evidence from a detector pass's Parquet rows (``trustmh audit EXPORT/``), counted in Arrow.

Each row holds one conversation's statutory findings as counts
(:mod:`trustmh.audit.statute_columns`). Per batch of rows, the period is applied and the checks
are grouped by (check, status, reason, minor) in Arrow; only those group counts, a few dozen per
profile, reach Python, so memory does not grow with the number of conversations. They add into
the same tallies the audit logs' conversations add into (:mod:`.tally`): the same conversations
give the same document whichever way they were audited.

Nothing of a conversation leaves the rows: no id, no text, no metadata.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from trustmh.audit.detect_pass import CONVERSATIONS_DIR
from trustmh.audit.pass_summary import pass_batches
from trustmh.audit.statutes.checks import COMPLIANT, NOT_CHECKABLE, VIOLATION
from trustmh.core.errors import UserError
from trustmh.regulatory.evidence import Findings, Period
from trustmh.regulatory.profiles import Item
from trustmh.regulatory.scope import SCOPE_CHECKS
from trustmh.regulatory.tally import CheckTally, ReferralSums

COLUMNS = ["statutes_version", "first_time", "minor", "referral_notifications", "statute_checks"]
NOT_MEASURED = "not measured by the detector pass"
GroupKey = tuple[str, str, str, bool | None]  # check, status, reason, minor


@dataclass
class PassCounts:
    """What the detector passes' rows add to a profile (see the module docstring)."""

    audited: int = 0
    in_period: int = 0
    undated: int = 0
    outside: int = 0
    without_findings: int = 0  # rows of a pass run before the statutory columns existed
    versions: set[str] = field(default_factory=set)
    referrals: ReferralSums = field(default_factory=ReferralSums)
    # (check, status, reason, minor) -> [conversations, violations, opportunities]
    groups: dict[GroupKey, list[int]] = field(default_factory=dict)
    # conversations whose three scope checks all ran / that have a reply out of scope (scope.py)
    scope_checked: int = 0
    scope_flagged: int = 0

    def check_tally(self, item: Item) -> CheckTally:
        """The item's tally over the rows; a check the pass did not compute is not checkable there."""
        tally = CheckTally()
        measured = 0
        for (check, status, reason, minor), (count, violations, opportunities) in self.groups.items():
            if check == item.check:
                result = {"status": status, "reason": reason, "violations": violations, "opportunities": opportunities}
                tally.add(item, minor, result, count)
                measured += count
        unmeasured = self.in_period - measured
        if unmeasured:
            tally.add(item, None, {"status": NOT_CHECKABLE, "reason": NOT_MEASURED}, unmeasured)
        return tally

    def add_to(self, findings: Findings) -> None:
        """Fold the rows' bookkeeping into the logs' (what the document's ``conversations`` reports)."""
        findings.audited += self.audited
        findings.undated += self.undated
        findings.outside += self.outside
        findings.without_findings += self.without_findings
        findings.versions |= self.versions


def _period_mask(first_time: pa.Array, period: Period) -> tuple[pa.Array, int, int]:
    """(rows in the period, undated rows left out, rows dated outside it)."""
    dated = pc.is_valid(first_time)
    if period.label is None:
        return pa.array([True] * len(first_time)), 0, 0
    inside = dated
    if period.start is not None:
        inside = pc.and_(inside, pc.greater_equal(first_time, period.start))
    if period.end is not None:
        inside = pc.and_(inside, pc.less(first_time, period.end))
    inside = pc.fill_null(inside, False)
    undated = len(first_time) - int(pc.sum(dated).as_py() or 0)
    return inside, undated, len(first_time) - undated - int(pc.sum(inside).as_py() or 0)


def _add_batch(counts: PassCounts, batch: pa.RecordBatch, period: Period) -> None:
    counts.audited += batch.num_rows
    with_findings = pc.is_valid(batch.column("statutes_version"))
    counts.without_findings += batch.num_rows - int(pc.sum(with_findings).as_py() or 0)
    batch = batch.filter(with_findings)
    inside, undated, outside = _period_mask(batch.column("first_time"), period)
    counts.undated += undated
    counts.outside += outside
    rows = batch.filter(inside)
    counts.in_period += rows.num_rows
    counts.versions.update(str(v) for v in pc.unique(rows.column("statutes_version")).to_pylist())
    notifications = pc.cast(rows.column("referral_notifications"), pa.int64())
    counts.referrals.add(
        ReferralSums(
            rows.num_rows,
            int(pc.sum(notifications).as_py() or 0),
            int(pc.sum(pc.multiply(notifications, notifications)).as_py() or 0),
            int(pc.sum(pc.greater(notifications, 0)).as_py() or 0),
        )
    )
    checks = rows.column("statute_checks")
    flat = pc.list_flatten(checks)
    table = pa.table(
        {
            "check": flat.field("check"),
            "status": flat.field("status"),
            "reason": pc.fill_null(flat.field("reason"), ""),
            "minor": pc.take(rows.column("minor"), pc.list_parent_indices(checks)),
            "violations": pc.cast(flat.field("violations"), pa.int64()),
            "opportunities": pc.cast(flat.field("opportunities"), pa.int64()),
        }
    )
    _add_scope(counts, flat, pc.list_parent_indices(checks))
    grouped = table.group_by(["check", "status", "reason", "minor"], use_threads=False).aggregate(
        [([], "count_all"), ("violations", "sum"), ("opportunities", "sum")]
    )
    for row in grouped.to_pylist():
        key = (row["check"], row["status"], row["reason"], row["minor"])
        total = counts.groups.setdefault(key, [0, 0, 0])
        total[0] += row["count_all"]
        total[1] += row["violations_sum"] or 0
        total[2] += row["opportunities_sum"] or 0


def _add_scope(counts: PassCounts, flat: pa.Array, parents: pa.Array) -> None:
    """Per conversation, the union of the three scope checks (:func:`.scope.detector_turns`):
    checked when all three decided, flagged when any found a violation."""
    status = flat.field("status")
    rows = pa.table(
        {
            "conversation": parents,
            "decided": pc.cast(pc.is_in(status, value_set=pa.array([COMPLIANT, VIOLATION])), pa.int64()),
            "violated": pc.cast(pc.equal(status, VIOLATION), pa.int64()),
        }
    ).filter(pc.is_in(flat.field("check"), value_set=pa.array(SCOPE_CHECKS)))
    per_conversation = rows.group_by("conversation", use_threads=False).aggregate(
        [("decided", "sum"), ("violated", "sum")]
    )
    checked = pc.equal(per_conversation.column("decided_sum"), len(SCOPE_CHECKS))
    counts.scope_checked += int(pc.sum(checked).as_py() or 0)
    flagged = pc.and_(checked, pc.greater(per_conversation.column("violated_sum"), 0))
    counts.scope_flagged += int(pc.sum(flagged).as_py() or 0)


def read_pass_counts(folders: Iterable[Path], period: Period) -> PassCounts:
    """The statutory counts of the detector passes in ``folders`` over ``period`` (streamed)."""
    counts = PassCounts()
    for folder in folders:
        parts = sorted((folder / CONVERSATIONS_DIR).glob("part-*.parquet"))
        names = pq.read_schema(parts[0]).names if parts else COLUMNS
        missing = [c for c in COLUMNS if c not in names]
        if missing:
            raise UserError(
                f"{folder}: a detector pass without the statutory columns ({', '.join(missing)}); "
                "rerun trustmh audit into a new --log-dir"
            )
        for batch in pass_batches(folder, COLUMNS):
            _add_batch(counts, batch, period)
    return counts
