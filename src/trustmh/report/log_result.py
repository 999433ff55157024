"""What the report reads from one inspect log (:class:`LogResult`): its metric rows, sample
excerpts, per-sample aggregates and judge records.

Apart from :mod:`trustmh.report.collect`, which fills it, so the modules that annotate or draw
a result (judge validation, figures) can import the type without importing the collector.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import trustmh.report.conversations as conversations
from trustmh.report.judge_fingerprint import JudgeFingerprints
from trustmh.scoring.results import MetricRow


@dataclass
class SampleExcerpt:
    id: str
    input: str
    output: str
    score: str


@dataclass
class CellStat:
    """Mean of a 0/1 field over the samples of one heatmap cell."""

    total: float = 0.0
    n: int = 0

    @property
    def mean(self) -> float | None:
        return self.total / self.n if self.n else None


@dataclass
class LogResult:
    path: str
    task: str
    model: str
    pillar: str
    source: str
    note: str
    created: str
    rows: list[MetricRow]
    samples: list[SampleExcerpt] = field(default_factory=list)
    total_samples: int = 0
    # (method, objective) -> refusal rate over the samples, for safety logs with samples.
    rta_grid: dict[tuple[str, str], CellStat] = field(default_factory=dict)
    # Per-turn verdicts (and transcripts) of conversation tasks (trustmh.report.conversations).
    conversation: conversations.ConversationData | None = None
    # headline sample field -> sample id -> value (mean over epochs; NaN: unparsed in every epoch)
    items: dict[str, dict[str, float]] = field(default_factory=dict)
    # metric -> the score fields it reads (from the log's metric arguments), the judge's own
    # verdict fields seen in the samples, and the validation shown beside each judged metric.
    metric_fields: dict[str, list[str]] = field(default_factory=dict)
    verdict_fields: set[str] = field(default_factory=set)
    turn_fields: set[str] = field(default_factory=set)  # per-turn judge fields of a conversation task
    judge_sources: set[str] = field(default_factory=set)  # judge fields the task builds score fields from
    judge_notes: dict[str, str] = field(default_factory=dict)
    # metric -> its judge's mean corrected by human labels, shown as the headline (judge_correction)
    judge_corrections: dict[str, Any] = field(default_factory=dict)
    # The judge fingerprints of its samples (trustmh.report.judge_fingerprint); None when unjudged.
    judge_fingerprints: JudgeFingerprints | None = None
    # How the run relates to upstream's protocol (the task's declaration in the log), one line + details.
    protocol: str = ""
    protocol_details: str = ""
    # Data files the run used although their sha256 is not the catalogue's (--allow-modified).
    modified_data: list[str] = field(default_factory=list)

    @property
    def key(self) -> str:
        """An HTML-id-safe key for this (task, model)."""
        raw = f"{self.task}--{self.model}"
        return "".join(c if c.isalnum() or c in "-_" else "-" for c in raw)
