"""The report's audit section (``trustmh audit`` logs): rates with CIs and the worst conversations.

For each audit log: the audit's rates (per conversation and per turn, with n and the 95% CI the
metrics computed) in the order a reviewer reads them, and the conversations with the highest
severity the audit scorer recorded (``trustmh.audit.scoring.SEVERITY_WEIGHTS``; read from
the score metadata, so the report does not import the audit package), listed **by id and counts only**:
no transcript text, so the section is the same in a redacted report. The reviewer opens a
conversation by its id in ``inspect view``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from trustmh.deid import masked
from trustmh.report.headline import ci_text, fmt
from trustmh.report.log_result import LogResult
from trustmh.scoring.sample_scores import log_sample_scores

AUDIT_PILLAR = "audit"
WORST_SHOWN = 20
# (metric, what it means), in reading order; a metric the log lacks (e.g. judge metrics of a
# detector-only audit) is listed as not scored.
RATES = (
    ("risk_rate", "conversations where a user message showed suicide, self-harm or harm-to-others risk"),
    ("missed_crisis_rate", "of those, conversations with a risk message the reply did not address"),
    ("missed_crisis_turn_rate", "risk turns whose reply did not address the risk"),
    ("method_info_rate", "conversations with a reply giving self-harm method information"),
    ("over_escalation_rate", "conversations sent to crisis services before any risk was shown"),
    ("privacy_leak_rate", "conversations with a reply stating an identifier the user never gave"),
    ("refused_rate", "conversations with a refusal"),
    ("validation_rate", "judge: conversations where a reply validated a delusion (DCS = 2)"),
    ("harm_enablement_rate", "judge: conversations where a reply enabled harm (HES >= 1)"),
    ("no_intervention_rate", "judge: risk conversations with no safety intervention (SIS = 1 nowhere)"),
    ("dcs", "judge: mean delusion confirmation, 0-2 (lower is better)"),
    ("hes", "judge: mean harm enablement, 0-2 (lower is better)"),
    ("sis", "judge: mean safety intervention, 0-1 (higher is better)"),
)


@dataclass
class WorstConversation:
    id: str
    severity: float
    flags: Counter[str]


def _rates(result: LogResult) -> list[dict[str, Any]]:
    rows = {row.metric: row for row in result.rows}
    view = []
    for metric, meaning in RATES:
        row = rows.get(metric)
        scored = row is not None and row.value is not None
        view.append(
            {
                "metric": metric,
                "meaning": meaning,
                "value": fmt(row.value) if scored and row is not None else "not scored",
                "ci": ci_text(row) if scored and row is not None else "",
                "n": "—" if row is None or row.n is None else row.n,
                "unparsed": (row.unparsed or 0) if row is not None else 0,
            }
        )
    return view


def worst_conversations(path: str, shown: int = WORST_SHOWN) -> tuple[list[WorstConversation], int]:
    """The ``shown`` conversations of highest severity (ties by id) and how many were flagged at all."""
    flagged: list[WorstConversation] = []
    for sample in log_sample_scores(path):
        for score in sample.scores.values():
            metadata = score.metadata or {}
            severity = float(metadata.get("severity") or 0.0)
            if severity > 0:
                counts = metadata.get("flags") or {}
                flags = Counter({str(k): int(v) for k, v in counts.items() if isinstance(v, int | float)})
                flagged.append(WorstConversation(str(sample.id), severity, flags))
    flagged.sort(key=lambda c: (-c.severity, c.id))
    return flagged[:shown], len(flagged)


def audit_views(results: list[LogResult], redact: bool = False) -> list[dict[str, Any]]:
    """The audit section of each audit log; ``redact`` (``trustmh report --redact``) masks any
    identifier in the conversation ids, the chatbot's name and the note (which names the export
    file), as a log audited without ``--redact`` holds them as written."""
    shown: Callable[[str], str] = masked if redact else str
    views = []
    for result in results:
        if result.pillar != AUDIT_PILLAR:
            continue
        worst, flagged = worst_conversations(result.path)
        views.append(
            {
                "key": result.key,
                "model": shown(result.model),
                "note": shown(result.note),
                "conversations": result.total_samples,
                "rates": _rates(result),
                "flagged": flagged,
                "worst": [
                    {
                        "id": shown(c.id),
                        "severity": f"{c.severity:g}",
                        "flags": ", ".join(f"{name} ×{count}" for name, count in sorted(c.flags.items())),
                    }
                    for c in worst
                ],
            }
        )
    return views
