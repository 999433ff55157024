"""What the page says in words: a sentence per model opening each pillar, a note in place of
an empty chart, and group tests (p-values, worst groups) as numbers and names."""

from __future__ import annotations

import math
import re

from trustmh.report.headline import GROUPED, PillarScore, TaskHeadline, fmt, task_means
from trustmh.scoring.results import MetricRow
from trustmh.tasking.headline import Headline

TEST_SUFFIX = re.compile(r"^(?P<measure>.+?)_(?P<kind>range_p|worst_group)$")


def _number(value: float | None, low: float | None, high: float | None, percent: bool) -> str:
    if value is None:
        return "—"
    if percent:
        text = f"{100 * value:.0f}%"
        return text if low is None or high is None else f"{text} [{100 * low:.0f}, {100 * high:.0f}]"
    return fmt(value, 2) if low is None or high is None else f"{fmt(value, 2)} [{fmt(low, 2)}, {fmt(high, 2)}]"


def _worst_group(score: PillarScore, rows: list[MetricRow]) -> str | None:
    """The group with the worst value among the headline's per-group rows, in words."""
    headline = score.headline
    tasks = {p.task for p in score.included}
    grouped = []
    for row in rows:
        found = GROUPED.match(row.metric)
        if (
            found
            and row.value is not None
            and row.model == score.model
            and row.source == score.source
            and row.task in tasks
            and found["base"] in (headline.metric, f"{headline.metric}_strict")
        ):
            grouped.append((found["by"], found["group"], row))
    if len(grouped) < 2:
        return None
    by, group, row = (min if headline.higher_is_better else max)(grouped, key=lambda g: g[2].value or 0.0)
    return f"worst {by}: {group} ({_number(row.value, row.ci_low, row.ci_high, headline.percent)})"


def _sentence(headline: Headline, parts: list[TaskHeadline]) -> str:
    """``headline``'s sentence over some task values: their mean, mean CI bounds and total n."""
    if not parts:
        return ""
    value, low, high = task_means(parts)
    return headline.sentence.format(value=_number(value, low, high, headline.percent), n=sum(p.n or 0 for p in parts))


def _component_sentence(score: PillarScore, headline: Headline) -> str:
    """One component's sentence (e.g. the Antitoxic part of Safety): the mean of its included parts."""
    return _sentence(headline, [p for p in score.included if (p.headline or score.headline) == headline])


def beside_sentences(score: PillarScore) -> list[str]:
    """One sentence per metric shown beside the pillar's headline (never ranked)."""
    headlines = dict.fromkeys(p.headline for p in score.beside if p.headline is not None)
    return [_sentence(h, [p for p in score.beside if p.headline == h]) for h in headlines]


def _headline_sentence(score: PillarScore, rows: list[MetricRow]) -> str:
    headline = score.headline
    if score.not_scored:
        return f"not scored — {score.not_scored}"
    if score.value is None:
        return f"left out of the ranking — {score.excluded}"
    if len(score.headlines) > 1:
        text = "; ".join(t for t in (_component_sentence(score, h) for h in score.headlines) if t)
        return text + (" (unparsed answers counted wrong)" if score.strict else "")
    low, high = score.ci or (None, None)
    text = headline.sentence.format(value=_number(score.value, low, high, headline.percent), n=score.n)
    if score.strict:
        text += " (unparsed answers counted wrong)"
    worst = _worst_group(score, rows)
    return text + (f"; {worst}" if worst else "")


def pillar_sentences(scores: list[PillarScore], rows: list[MetricRow]) -> list[dict[str, str]]:
    """One plain sentence per (source, model): the headline with its CI and n (or what it needs,
    when not scored), the worst group, a component not scored, then the metrics beside it."""
    out = []
    for score in scores:
        text = _headline_sentence(score, rows)
        if score.parts:
            text += "".join(f"; {h.label}: not scored — {why}" for h, why in score.missing)
        beside = [t for t in beside_sentences(score) if t]
        if beside:
            text += "; beside it, not ranked: " + "; ".join(beside)
        out.append({"model": score.model, "source": score.source, "text": text})
    return out


def not_drawn_note(name: str, rows: list[MetricRow]) -> str:
    """The line shown instead of a chart with no values (``name`` is ``"<task>: <base> by <by>"``
    or ``"<task>: APA principles"``): what is missing and how to get it."""
    task, _, rest = name.partition(": ")
    base = rest.split(" by ", 1)[0] if " by " in rest else "sc"
    mine = [r for r in rows if r.task == task and r.metric.startswith(base)]
    if any(r.value is not None for r in mine):
        return f"{name}: no bars to draw — every value is 0 (values, CIs and n in the table below)."
    if any(r.unparsed for r in mine):
        return f"{name}: no scored values — every answer or judge reply was unparsed (counts in the unparsed table)."
    if any(r.judge for r in rows if r.task == task):
        return f"{name}: no scored values (see the unparsed table)."
    return f"{name}: not scored — these metrics need a judge; rerun with --judge MODEL (e.g. --judge openai/gpt-4o)."


def _group_name(attribute: str, value: float | None) -> str:
    """A worst-group index as the group's name (the fairness scorer reports indices)."""
    if value is None or not math.isfinite(value):
        return "—"
    from trustmh.pillars.fairness.demographics import GROUPS, group_names

    if attribute in GROUPS and 0 <= int(value) < len(group_names(attribute)):
        return group_names(attribute)[int(value)]
    return fmt(value, 0)


def group_tests(rows: list[MetricRow]) -> list[dict[str, str]]:
    """Per (task, model, measure, group): the permutation p-value and the worst group, by name."""
    table: dict[tuple[str, str, str, str], dict[str, str]] = {}
    for row in rows:
        found = GROUPED.match(row.metric)
        test = TEST_SUFFIX.match(found["base"]) if found else None
        if not found or not test:
            continue
        key = (row.task, row.model, test["measure"], f"{found['by']}={found['group']}")
        entry = table.setdefault(
            key,
            {"task": row.task, "model": row.model, "measure": test["measure"], "group": key[3], "p": "—", "worst": "—"},
        )
        if test["kind"] == "range_p":
            entry["p"] = "—" if row.value is None else f"{row.value:.3g}"
        else:
            entry["worst"] = _group_name(found["group"], row.value)
    return list(table.values())
