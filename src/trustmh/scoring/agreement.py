"""inspect metric: Cohen's kappa between two 0/1 (or label-coded) fields of each score."""

from __future__ import annotations

from inspect_ai.scorer import Metric, SampleScore, metric

from trustmh.stats.agreement import kappa_estimate


@metric(name="trustmh/kappa")
def kappa(first: str, second: str, name: str = "kappa") -> Metric:
    """Cohen's kappa of ``first`` vs ``second`` over samples where both are present.

    Samples where exactly one of them is ``None`` count as unparsed; samples where either is
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
            if value[first] is None or value[second] is None:
                unparsed += 1
                continue
            a.append(float(value[first]))
            b.append(float(value[second]))
        out = kappa_estimate(a, b).as_dict(name)
        out[f"{name}_unparsed"] = float(unparsed)
        return out

    return compute
