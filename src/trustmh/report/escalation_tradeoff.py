"""Escalation balance: missing a crisis against over-escalating everyday distress, one point per model.

A model can fail a person in two opposite ways. The x axis is its **high-risk miss rate** on
``crisis_classification``: 1 − ``high_risk_recall`` (the share of suicidal-ideation and self-harm
messages it did not put in either high-risk class), the strict variant when the log has it (an
unparsed answer counts as a miss, so a model cannot look safer by not answering). The y axis is
its **over-escalation rate** on ``crisis_overescalation``: the judge's (``over_escalation_rate_judge``)
when any model has it, else the offline detector's (``over_escalation_rate``); the axis title says
which. The bottom-left corner is best. A model lacking either axis is left out (never drawn at 0),
and so is a rate that is no finding (mostly unparsed, too few parsed items:
:func:`~trustmh.report.headline.row_problem`); its sentence says why instead. The sentence
names the metric and value the metrics table shows (``high_risk_recall`` strict, its own row's
numbers), so prose and table never disagree about the same items.

:func:`escalation_points` gives the same numbers to ``report --json`` and to the crisis pillar's
sentence, which says which side a model fails on (:func:`failing_side`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass

import plotly.graph_objects as go

from trustmh.core.plotting import style_layout
from trustmh.report.evidence import row_problem
from trustmh.report.figures import Style, row_hover
from trustmh.report.headline import fmt
from trustmh.report.safety_tradeoff import point_trace
from trustmh.scoring.results import MetricRow

MISS_TASK, MISS_METRIC = "crisis_classification", "high_risk_recall"
OVER_TASK = "crisis_overescalation"
OVER_METRICS = ("over_escalation_rate_judge", "over_escalation_rate")
NO_VERDICT = "no verdict"  # a rate that is no finding (mostly unparsed, too few parsed items)


@dataclass(frozen=True)
class Rate:
    """One axis value of one model: the rate, its 95% CI (``None`` when not one estimate), n."""

    value: float
    ci: tuple[float, float] | None
    n: int | None
    metric: str
    # The table's value behind the rate (``high_risk_recall_strict 0.167``), when it is 1 − it.
    source_value: str = ""
    problem: str | None = None  # why the rate is no finding (the summary's † rule), if it is not one

    def text(self) -> str:
        ci = "" if self.ci is None else f" [{fmt(self.ci[0] * 100, 0)}, {fmt(self.ci[1] * 100, 0)}]"
        return f"{fmt(self.value * 100, 0)}%{ci}"


@dataclass(frozen=True)
class EscalationPoint:
    model: str
    source: str
    miss: Rate
    over: Rate
    # "missing crises" | "over-escalation" | "neither side clearly" (see failing_side) | NO_VERDICT
    side: str

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def _mean(rates: list[Rate]) -> Rate:
    """Mean over a model's logs of the task; a CI only when there is one (means of CIs are not CIs)."""
    if len(rates) == 1:
        return rates[0]
    n = sum(r.n or 0 for r in rates)
    problem = next((r.problem for r in rates if r.problem), None)
    return Rate(sum(r.value for r in rates) / len(rates), None, n or None, rates[0].metric, problem=problem)


def _miss_rate(row: MetricRow) -> Rate | None:
    """1 − high-risk recall, strict when reported; the CI flips with it."""
    if row.strict is not None:
        value, low, high, n, name = row.strict, row.strict_ci_low, row.strict_ci_high, row.strict_n, "_strict"
    elif row.value is not None:
        value, low, high, n, name = row.value, row.ci_low, row.ci_high, row.n, ""
    else:
        return None
    ci = None if low is None or high is None else (1 - high, 1 - low)
    metric = f"{MISS_METRIC}{name}"
    return Rate(1 - value, ci, n, f"1 - {metric}", f"{metric} {fmt(value)}", row_problem(row))


def _over_metric(rows: list[MetricRow]) -> str | None:
    """The judge's rate when any model has it, else the detector's: one method for every model."""
    for metric in OVER_METRICS:
        if any(r.task == OVER_TASK and r.metric == metric and r.value is not None for r in rows):
            return metric
    return None


def failing_side(miss: Rate, over: Rate) -> str:
    """The side whose rate is higher with CIs that do not overlap; else neither clearly."""
    if miss.ci is not None and over.ci is not None:
        if miss.ci[0] > over.ci[1]:
            return "missing crises"
        if over.ci[0] > miss.ci[1]:
            return "over-escalation"
    return "neither side clearly"


def escalation_points(rows: list[MetricRow]) -> list[EscalationPoint]:
    """One point per model that has both axes, in the order models first appear."""
    over_metric = _over_metric(rows)
    misses: dict[str, list[Rate]] = {}
    overs: dict[str, list[Rate]] = {}
    sources: dict[str, set[str]] = {}
    for row in rows:
        if row.task == MISS_TASK and row.metric == MISS_METRIC:
            rate = _miss_rate(row)
            if rate is not None:
                misses.setdefault(row.model, []).append(rate)
        elif row.task == OVER_TASK and row.metric == over_metric and row.value is not None:
            ci = None if row.ci_low is None or row.ci_high is None else (row.ci_low, row.ci_high)
            overs.setdefault(row.model, []).append(Rate(row.value, ci, row.n, row.metric, problem=row_problem(row)))
            sources.setdefault(row.model, set()).add(row.source)
    points = []
    for model in dict.fromkeys(r.model for r in rows):
        if model in misses and model in overs:
            miss, over = _mean(misses[model]), _mean(overs[model])
            source = "starter" if "starter" in sources[model] else "benchmark"
            side = NO_VERDICT if miss.problem or over.problem else failing_side(miss, over)
            points.append(EscalationPoint(model, source, miss, over, side))
    return points


def escalation_sentences(points: list[EscalationPoint]) -> list[dict[str, str]]:
    """The crisis pillar's line per model: both rates and the side it fails on."""
    out = []
    for p in points:
        problem = p.miss.problem or p.over.problem
        if problem is not None:
            which = "high-risk recall" if p.miss.problem else "over-escalation"
            text = f"escalation balance: no verdict — the {which} rate is no finding ({problem})"
            out.append({"model": p.model, "source": p.source, "text": text})
            continue
        side = (
            "no side clearly worse (the CIs overlap)"
            if p.side == "neither side clearly"
            else f"fails mainly by {p.side}"
        )
        out.append(
            {
                "model": p.model,
                "source": p.source,
                "text": (
                    f"escalation balance: misses {p.miss.text()} of high-risk messages "
                    f"({_counted(p.miss)}n = {p.miss.n}) and "
                    f"over-escalates {p.over.text()} of everyday distress (n = {p.over.n}, {p.over.metric}): {side}"
                ),
            }
        )
    return out


def escalation_tradeoff_figure(rows: list[MetricRow], style: dict[str, Style]) -> go.Figure | None:
    """High-risk miss rate (x) against over-escalation rate (y), one point per model."""
    points = [p for p in escalation_points(rows) if p.model in style and not (p.miss.problem or p.over.problem)]
    if not points:
        return None
    fig = go.Figure()
    for p in points:
        hover = "<br>".join(
            row_hover(r)
            for r in rows
            if r.model == p.model
            and (
                (r.task == MISS_TASK and r.metric == MISS_METRIC) or (r.task == OVER_TASK and r.metric == p.over.metric)
            )
        )
        hover += f"<br>fails on: {p.side}"
        fig.add_trace(point_trace(p.model, _bars(p.miss), _bars(p.over), hover, style[p.model]))
    style_layout(
        fig,
        "crisis: missing a crisis vs over-escalating everyday distress (bottom left is best)",
        xaxis={"title": {"text": f"high-risk miss rate ({_metrics(p.miss for p in points)})"}, "range": [-0.05, 1.05]},
        yaxis={"title": {"text": f"over-escalation rate ({_metrics(p.over for p in points)})"}, "range": [-0.05, 1.05]},
    )
    return fig


def _counted(miss: Rate) -> str:
    """Which of the table's values the miss rate is: 1 − ``high_risk_recall_strict 0.167``."""
    if not miss.source_value:
        return ""
    strict = ", unparsed answers counted as misses" if "_strict" in miss.metric else ""
    return f"1 − {miss.source_value}{strict}, "


def _metrics(rates: Iterable[Rate]) -> str:
    return " / ".join(dict.fromkeys(r.metric for r in rates))


def _bars(rate: Rate) -> tuple[float, float | None, float | None]:
    if rate.ci is None:
        return rate.value, None, None
    return rate.value, max(rate.value - rate.ci[0], 0.0), max(rate.ci[1] - rate.value, 0.0)
