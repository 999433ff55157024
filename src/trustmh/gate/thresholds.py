"""Threshold checks: a task's metric, or a pillar's headline, against ``min``/``max``.

Decided on the end of the 95% CI on the cautious side — the lower end against ``min``, the
upper end against ``max`` — never on the mean: a release passes when the evidence says it
clears the bar, not when it might. Where the scorer reports a strict twin (unparsed answers
counted wrong) the strict value is used, as the report ranks it; where a judged metric has a
PPI++ correction by human labels (``--judge-validation``), the corrected CI is used. Fewer
scored items than ``min_n``, or no CI at all, is *insufficient evidence*, not a pass.
"""

from __future__ import annotations

from trustmh.core.errors import UserError
from trustmh.gate.evidence import Run, cautious_row, corrected_row, is_corrected
from trustmh.gate.policy import ThresholdGate
from trustmh.report.gate_verdict import FAIL, INSUFFICIENT, PASS, Case
from trustmh.report.headline import fmt, pillar_scores

Interval = tuple[float, float]


def _name(target: str, direction: str, threshold: float, source: str = "") -> str:
    return f"{target} {direction} {threshold:g}" + (f" [{source}]" if source else "")


def _estimate(value: float, ci: Interval | None, n: int | None) -> str:
    interval = "" if ci is None else f" [{fmt(ci[0])}, {fmt(ci[1])}]"
    return f"{fmt(value)}{interval}, n={'—' if n is None else n}"


def decide(
    name: str,
    value: float | None,
    ci: Interval | None,
    n: int | None,
    direction: str,
    threshold: float,
    min_n: int,
    corrected: bool = False,
    task: str = "",
) -> Case:
    """One bound of one gate (see the module docstring)."""

    def case(status: str, message: str, bound: float | None = None) -> Case:
        return Case("threshold", name, status, message, value, ci, n, threshold, bound, corrected, task)

    if value is None:
        return case(INSUFFICIENT, "no value: nothing was scored (a judged metric needs --judge)")
    if n is None or n < min_n:
        return case(INSUFFICIENT, f"{_estimate(value, ci, n)}: below min_n {min_n}, too few items to decide")
    if ci is None:
        return case(INSUFFICIENT, f"{fmt(value)} reported without a 95% CI; the gate decides on the CI, never the mean")
    lower = direction == "min"
    bound = ci[0] if lower else ci[1]
    passed = bound >= threshold if lower else bound <= threshold
    end = "lower" if lower else "upper"
    relation = (">=" if lower else "<=") if passed else ("<" if lower else ">")
    message = f"{end} 95% bound {fmt(bound)} {relation} {direction} {threshold:g} ({_estimate(value, ci, n)})"
    if corrected:
        message += ", PPI++-corrected by human labels"
    if not passed and (value >= threshold if lower else value <= threshold):
        message += "; the mean clears it but the CI does not: more items would narrow the CI"
    return case(PASS if passed else FAIL, message, bound)


def _bounds(gate: ThresholdGate) -> list[tuple[str, float]]:
    return [(name, bound) for name, bound in (("min", gate.min), ("max", gate.max)) if bound is not None]


def metric_cases(gate: ThresholdGate, run: Run, min_n: int) -> list[Case]:
    assert gate.metric is not None
    task, _, metric = gate.metric.partition("/")
    result = run.result(task, f"gates: {gate.metric}")
    found = [row for row in result.rows if row.metric == metric]
    if not found:
        names = ", ".join(sorted(row.metric for row in result.rows if "[" not in row.metric))
        raise UserError(f"gates: {gate.metric}: task {task} reports no metric {metric} (it reports: {names})")
    corrected = is_corrected(found[0], result)
    row = corrected_row(found[0], result) if corrected else cautious_row(found[0])
    ci = None if row.ci_low is None or row.ci_high is None else (row.ci_low, row.ci_high)
    n = row.n
    if corrected:
        correction = result.judge_corrections[metric]
        n = correction.n_labelled + correction.n_unlabelled
    return [
        decide(_name(gate.metric, direction, bound), row.value, ci, n, direction, bound, min_n, corrected, task)
        for direction, bound in _bounds(gate)
    ]


def pillar_cases(gate: ThresholdGate, run: Run, min_n: int) -> list[Case]:
    """One case per bound and per source (starter and benchmark values are never mixed)."""
    assert gate.pillar is not None
    rows = run.rows()
    scores = [
        s for (_, model, pillar), s in pillar_scores(rows).items() if model == run.model and pillar == gate.pillar
    ]
    if not scores:
        raise UserError(
            f"gates: pillar {gate.pillar}: the logs in {run.log_dir} have no task of this pillar for {run.model}; "
            "run its tasks (`trustmh tasks` lists them), then gate again"
        )
    corrected = {(r.task, row.metric) for r in run.results.values() for row in r.rows if is_corrected(row, r)}
    cases = []
    for score in scores:
        source = score.source if len(scores) > 1 else ""
        for direction, bound in _bounds(gate):
            name = _name(f"pillar {gate.pillar}", direction, bound, source)
            if score.value is None:
                cases.append(Case("threshold", name, INSUFFICIENT, f"not decidable: {score.excluded}", threshold=bound))
                continue
            parts_corrected = any((p.task, row.metric) in corrected for p in score.included for row in p.rows)
            cases.append(decide(name, score.value, score.ci, score.n, direction, bound, min_n, parts_corrected))
    return cases


def threshold_cases(gate: ThresholdGate, run: Run, min_n: int) -> list[Case]:
    chosen = gate.min_n if gate.min_n is not None else min_n
    return metric_cases(gate, run, chosen) if gate.metric is not None else pillar_cases(gate, run, chosen)
