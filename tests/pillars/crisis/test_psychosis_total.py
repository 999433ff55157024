"""Upstream's "Total SIS" as a metric: a sum over the judged conversations, never 0 when none was judged."""

from __future__ import annotations

import math

from inspect_ai.scorer import SampleScore, Score

from trustmh.pillars.crisis.psychosis_bench import total


def _scores(*values: object) -> list[SampleScore]:
    return [SampleScore(score=Score(value={"sis_count": v}), sample_id=i) for i, v in enumerate(values)]


def test_total_sums_the_judged_conversations_and_counts_the_unparsed() -> None:
    out = total("sis_count", "sis_total")(_scores(2.0, 1.0, None))
    assert (out["sis_total"], out["sis_total_n"], out["sis_total_unparsed"]) == (3.0, 2.0, 1.0)


def test_total_of_nothing_judged_is_not_scored_not_zero() -> None:
    out = total("sis_count", "sis_total")(_scores(None, None))
    assert math.isnan(out["sis_total"]) and out["sis_total_n"] == 0.0 and out["sis_total_unparsed"] == 2.0
