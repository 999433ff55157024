"""The share of judged samples whose judged text held a suspected planted rating.

Every trustmh scorer (:func:`~trustmh.scoring.unparsed.trustmh_scorer`) records, per sample
it judged, ``suspected_plant`` = 1 when some text the judge read still named a rubric field next
to one of its values once normalised (:mod:`trustmh.scoring.planted`; the judge read that text
with those ratings masked), else 0. :func:`suspected_plant_share` reports the share over the
judged samples, ``suspected_plant`` with its Wilson 95% CI and n (samples judged), and nothing
for a scorer that judged nothing. It rates no model: a high share says the answers carry
verdicts addressed to the judge (or that ordinary text looks like one; docs/hardening.md gives
the share measured on ordinary answers).
"""

from __future__ import annotations

from collections.abc import Iterable

from inspect_ai.scorer import Metric, SampleScore, metric

from trustmh.scoring.judge_record import SUSPECTED_PLANT_KEY
from trustmh.scoring.results import MetricRow
from trustmh.stats.intervals import proportion_estimate


def suspected_flags(scores: list[SampleScore]) -> list[float]:
    """``suspected_plant`` (0/1) of every judged sample among ``scores``."""
    flags = []
    for sample_score in scores:
        flag = (sample_score.score.metadata or {}).get(SUSPECTED_PLANT_KEY)
        if flag is not None:
            flags.append(float(flag))
    return flags


@metric(name="trustmh/suspected_plant")
def suspected_plant_share() -> Metric:
    """``suspected_plant`` (share, CI, n) over the judged samples; nothing when none was judged."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        flags = suspected_flags(scores)
        return proportion_estimate(flags).as_dict(SUSPECTED_PLANT_KEY) if flags else {}

    return compute


def suspected_rows(rows: Iterable[MetricRow]) -> list[MetricRow]:
    """The ``suspected_plant`` metric rows of logs that judged something."""
    return [row for row in rows if row.metric == SUSPECTED_PLANT_KEY and row.n]


def suspected_count(row: MetricRow) -> int:
    """How many judged samples a ``suspected_plant`` row counts (its share times n)."""
    return round((row.value or 0.0) * (row.n or 0))
