"""inspect metric: Cohen's kappa between two 0/1 (or label-coded) fields of each score."""

from __future__ import annotations

from inspect_ai.scorer import Metric, SampleScore, metric

from trustmh.scoring.metrics import estimate_metrics
from trustmh.scoring.unparsed import is_unparsed
from trustmh.stats.agreement import kappa_estimate


@metric(name="trustmh/kappa")
def kappa(first: str, second: str, name: str = "kappa") -> Metric:
    """Cohen's kappa of ``first`` vs ``second`` over samples where both are present.

    Samples where either of them is unparsed count as unparsed; samples where either is
    absent are not applicable.
    """

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        a: list[float] = []
        b: list[float] = []
        unparsed = 0
        for sample_score in scores:
            value = sample_score.score.value
            if not isinstance(value, dict) or first not in value or second not in value:
                continue
            if is_unparsed(value[first]) or is_unparsed(value[second]):
                unparsed += 1
                continue
            a.append(float(value[first]))
            b.append(float(value[second]))
        return estimate_metrics(name, kappa_estimate(a, b), unparsed)

    return compute
