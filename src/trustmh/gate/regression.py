r"""Release against release: the candidate may not be worse than the baseline beyond the evidence.

For each pillar (its headline) and metric the policy names, the candidate and the baseline are
compared **paired, over the items both runs answered**, with the report's paired bootstrap
(:func:`trustmh.stats.paired_bootstrap.paired_bootstrap_difference`; for a pillar the same
item pairing as the report's ranking, :func:`trustmh.report.ranking.paired_items`). With
:math:`D` the candidate minus the baseline and its 95% CI :math:`[D_l, D_h]`, the gain is
:math:`G = D` when higher is better and :math:`-D` when lower is better, and the check passes
when the cautious end clears the margin :math:`m`:

.. math::  G_{low} \ge -m

i.e. a drop of more than ``margin`` is ruled out by the data. This catches a regression that
stays above an absolute threshold, and a run too small to rule one out fails rather than passes.
Fewer shared items than ``min_n``, or a headline that is not a per-item mean, is *insufficient*.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from trustmh.core.errors import UserError
from trustmh.gate.evidence import Run
from trustmh.gate.policy import Regression, RegressionMetric
from trustmh.report.collect import sample_items
from trustmh.report.gate_verdict import FAIL, INSUFFICIENT, PASS, Case
from trustmh.report.headline import PillarScore, pillar_scores
from trustmh.report.ranking import paired_items
from trustmh.stats.paired_bootstrap import PairedDifference, paired_bootstrap_difference

CANDIDATE, BASELINE = "candidate", "baseline"
SAME_MEAN_TOLERANCE = 1e-6


def decide_regression(
    name: str, difference: PairedDifference | None, higher_is_better: bool, margin: float, min_n: int, task: str = ""
) -> Case:
    """The check of one paired difference (see the module docstring)."""
    if difference is None or difference.n < min_n:
        shared = 0 if difference is None else difference.n
        return Case("regression", name, INSUFFICIENT, f"{shared} shared items, below min_n {min_n}: too few to decide")
    low, high = difference.ci_low, difference.ci_high
    gain_low = low if higher_is_better else -high
    passed = gain_low >= -margin
    better = "higher" if higher_is_better else "lower"
    message = (
        f"candidate − baseline {difference.difference:+.3f} [{low:+.3f}, {high:+.3f}] over {difference.n} shared items "
        f"({better} is better): "
        + (
            f"a drop of more than {margin:g} is ruled out"
            if passed
            else f"a drop of more than {margin:g} cannot be ruled out"
        )
    )
    return Case(
        "regression",
        name,
        PASS if passed else FAIL,
        message,
        value=difference.difference,
        ci=(low, high),
        n=difference.n,
        threshold=-margin,
        bound=gain_low,
        task=task,
    )


def _scores(run: Run, pillar: str) -> dict[str, PillarScore]:
    found = pillar_scores([row for result in run.results.values() for row in result.rows])
    return {source: score for (source, model, name), score in found.items() if model == run.model and name == pillar}


def _items(run: Run, label: str) -> dict[tuple[str, str, str], dict[str, float]]:
    return {
        (label, task, field): values for task, result in run.results.items() for field, values in result.items.items()
    }


def pillar_regression(pillar: str, candidate: Run, baseline: Run, margin: float, min_n: int) -> list[Case]:
    mine, theirs = _scores(candidate, pillar), _scores(baseline, pillar)
    if not mine or not theirs:
        lacking = candidate if not mine else baseline
        raise UserError(f"regression: pillar {pillar}: the logs in {lacking.log_dir} have no task of this pillar")
    items = _items(candidate, CANDIDATE) | _items(baseline, BASELINE)
    cases = []
    for source, score in mine.items():
        name = f"regression pillar {pillar}" + (f" [{source}]" if len(mine) > 1 else "")
        other = theirs.get(source)
        if other is None or score.value is None or other.value is None:
            why = "the baseline has no result from this source" if other is None else other.excluded or score.excluded
            cases.append(Case("regression", name, INSUFFICIENT, f"not decidable: {why}"))
            continue
        pairs = paired_items(replace(score, model=CANDIDATE), replace(other, model=BASELINE), items)
        if pairs is None:
            message = "no paired comparison: the two runs differ in their tasks, or share too few items in one"
            cases.append(Case("regression", name, INSUFFICIENT, message))
            continue
        difference = paired_bootstrap_difference(pairs)
        cases.append(decide_regression(name, difference, score.headline.higher_is_better, margin, min_n))
    return cases


def _field_values(run: Run, task: str, metric: str, named: str | None, what: str) -> dict[str, float]:
    """The per-item values of the one score field ``metric`` is the mean of: ``named`` in the
    policy, else as the log records it; checked against the metric's value (exit 2 when it is not)."""
    result = run.result(task, what)
    fields = [named] if named else result.metric_fields.get(metric, [])
    rows = [row for row in result.rows if row.metric == metric]
    if not rows:
        raise UserError(f"{what}: task {task} reports no metric {metric}")
    if len(fields) != 1:
        raise UserError(
            f"{what}: the log does not record which per-item score field {metric} of {task} is the mean of; "
            "name it with field: (e.g. field: correct)"
        )
    try:
        values = sample_items(run.samples(task, what), (fields[0],)).get(fields[0], {})
    except (TypeError, ValueError):
        raise UserError(f"{what}: the score field {fields[0]} of {task} is not a number") from None
    parsed = [v for v in values.values() if math.isfinite(v)]
    value = rows[0].value
    if not parsed or value is None or abs(sum(parsed) / len(parsed) - value) > SAME_MEAN_TOLERANCE * max(1, abs(value)):
        raise UserError(f"{what}: {metric} of {task} is not the mean of its field {fields[0]}; it cannot be paired")
    return values


def metric_regression(spec: RegressionMetric, candidate: Run, baseline: Run, margin: float, min_n: int) -> Case:
    task, _, metric = spec.metric.partition("/")
    what = f"regression: {spec.metric}"
    mine = _field_values(candidate, task, metric, spec.field, what)
    theirs = _field_values(baseline, task, metric, spec.field, what)
    shared = sorted(i for i in set(mine) & set(theirs) if math.isfinite(mine[i]) and math.isfinite(theirs[i]))
    pair = (np.array([mine[i] for i in shared]), np.array([theirs[i] for i in shared]))
    difference = paired_bootstrap_difference([pair]) if shared else None
    return decide_regression(f"regression {spec.metric}", difference, spec.better == "higher", margin, min_n, task)


def regression_cases(policy: Regression, candidate: Run, baseline: Run, min_n: int) -> list[Case]:
    cases = [c for p in policy.pillars for c in pillar_regression(p, candidate, baseline, policy.margin, min_n)]
    return cases + [metric_regression(m, candidate, baseline, policy.margin, min_n) for m in policy.metrics]
