"""The one rule for what is shown as a finding, behind every † in the run summary and every value
the report leaves out of its charts and ranking (:mod:`trustmh.report.headline` adds the rules
that need a headline: no variance, a drop from a base at chance)."""

from __future__ import annotations

from trustmh.scoring.results import MetricRow

# Below this many parsed items a value is left out: one item moves a rate by 20 points or more
# and a bootstrap or Wilson interval is not to be trusted.
MIN_N = 5
# Above this share of unparsed answers a value is the few answers that happened to parse, not the model.
MAX_UNPARSED_SHARE = 0.5


def items_of(row: MetricRow) -> int | None:
    """How many items a metric row was asked about, unparsed included: the same count for a
    parsed-only row (``n`` parsed + ``unparsed``) as for its strict twin (``strict_n``)."""
    if row.strict_n is not None:
        return row.strict_n
    if row.n is None:
        return None
    return row.n + (row.unparsed or 0)


def evidence_problem(items: int | None, unparsed: int) -> str | None:
    """Why a value from ``items`` items, ``unparsed`` of them unread, is no finding — the one rule
    behind every † in the summary and every value left out of the report's charts and ranking:
    more than :data:`MAX_UNPARSED_SHARE` unparsed, or fewer than :data:`MIN_N` parsed. ``None``
    when the value may be shown as a finding."""
    if not items:
        return f"n = {'—' if items is None else items}, below the minimum of {MIN_N}"
    if unparsed > MAX_UNPARSED_SHARE * items:
        return f"{unparsed} of {items} answers unparsed (more than {MAX_UNPARSED_SHARE:.0%})"
    parsed = items - unparsed
    if parsed < MIN_N:
        counted = f"n = {parsed}" if not unparsed else f"{parsed} parsed of {items}"
        return f"{counted}, below the minimum of {MIN_N}"
    return None


def row_problem(row: MetricRow) -> str | None:
    """:func:`evidence_problem` of one metric row (a chart point, a fallback summary line)."""
    return evidence_problem(items_of(row), row.unparsed or 0)
