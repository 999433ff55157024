"""Each pillar's headline value per model, per source, with the reason when it says nothing.

The headline metric of each pillar is fixed and declared beside its tasks
(``trustmh/pillars/<pillar>/headline.py``): a model that lacks it is *not scored* on the
pillar, with what it needs, whatever else it has; the metrics declared ``BESIDE`` the headline
are carried along to be shown, never ranked. Starter-suite and benchmark results are never
mixed: a pillar score is built from one source's rows only. Where a scorer reports a strict
twin ``<metric>_strict`` (unparsed answers counted wrong, as the upstream benchmark does),
the strict value is the one ranked, so a model cannot climb by breaking the answer format;
the parsed-only value is kept beside it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace

from trustmh import PILLARS
from trustmh.pillars.headline import pillar_beside, pillar_components

# The one rule for what is a finding (MIN_N parsed items, at most half unparsed), re-exported here
# for the summary, the ranking and the charts.
from trustmh.report.evidence import MIN_N as MIN_N
from trustmh.report.evidence import evidence_problem, items_of
from trustmh.scoring.results import MetricRow
from trustmh.tasking.headline import Headline

GROUPED = re.compile(r"^(?P<base>[^\[\]]+)\[(?P<by>[^=\]]+)=(?P<group>[^\]]+)\]$")


def fmt(value: float | None, digits: int = 3) -> str:
    return "—" if value is None or not math.isfinite(value) else f"{value:.{digits}f}"


def ci_text(row: MetricRow) -> str:
    if row.ci_low is None or row.ci_high is None:
        return "(no CI)"
    return f"[{fmt(row.ci_low)}, {fmt(row.ci_high)}]"


def strict_name(metric: str) -> str:
    """``accuracy`` → ``accuracy_strict``; ``drop[by=g]`` → ``drop_strict[by=g]``."""
    found = GROUPED.match(metric)
    if found:
        return f"{found['base']}_strict[{found['by']}={found['group']}]"
    return f"{metric}_strict"


def matches(headline: Headline, row: MetricRow) -> bool:
    if not headline.applies_to(row.task):
        return False
    if headline.grouped_by is None:
        return row.metric == headline.metric
    found = GROUPED.match(row.metric)
    return found is not None and found["base"] == headline.metric and found["by"] == headline.grouped_by


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


@dataclass
class TaskHeadline:
    """One task's headline for one model: the ranked value (strict when the scorer reports
    it), the parsed-only value beside it, and why it is left out of the ranking, if it is."""

    task: str
    value: float
    ci_low: float | None
    ci_high: float | None
    n: int | None
    unparsed: int
    strict: bool
    parsed_value: float | None
    rows: list[MetricRow]
    excluded: str | None = None
    headline: Headline | None = None  # which of the pillar's headlines this task's value is
    # Items asked, unparsed included (the strict n; parsed n + unparsed otherwise): what the summary's
    # "items" column shows, the same count whichever variant is ranked.
    items: int | None = None


def _aggregate(rows: list[MetricRow]) -> tuple[float, float | None, float | None, int | None, int]:
    """Mean over groups; CI bounds averaged (conservative for a mean); the smallest n."""
    lows = [r.ci_low for r in rows]
    highs = [r.ci_high for r in rows]
    ns = [r.n for r in rows if r.n is not None]
    return (
        _mean([r.value for r in rows if r.value is not None]),
        None if any(v is None for v in lows) else _mean([v for v in lows if v is not None]),
        None if any(v is None for v in highs) else _mean([v for v in highs if v is not None]),
        min(ns) if ns else None,
        sum(r.unparsed or 0 for r in rows),
    )


def _exclusion(
    headline: Headline, value: TaskHeadline, baseline: MetricRow | None, groups: list[tuple[str, int | None, int]]
) -> str | None:
    """Why this value carries no information (:func:`evidence_problem` of any of its groups, no
    variance, a drop from a base at chance), or ``None`` when it does."""
    for group, items, unparsed in groups:
        problem = evidence_problem(items, unparsed)
        if problem is not None:
            return f"{group}: {problem}" if group else problem
    if headline.constant_is_uninformative and all(
        r.ci_low is not None and r.ci_low == r.ci_high == r.value for r in value.rows
    ):
        return "no variance: every group had the same value throughout (e.g. zero refusals everywhere)"
    chance = headline.chance_of(value.task)
    if chance is not None and baseline is not None and baseline.value is not None:
        low = baseline.ci_low if baseline.ci_low is not None else baseline.value
        if low <= chance:
            return (
                f"base score {fmt(baseline.value)} {ci_text(baseline)} is at chance level ({fmt(chance)}), "
                "so a drop from it means nothing"
            )
    return None


def folded_strict(row: MetricRow) -> MetricRow | None:
    """The strict variant that :mod:`trustmh.scoring.results` folds into ``row``, as a row of its own."""
    if row.strict is None:
        return None
    return replace(
        row,
        metric=strict_name(row.metric),
        value=row.strict,
        ci_low=row.strict_ci_low,
        ci_high=row.strict_ci_high,
        n=row.strict_n,
        unparsed=0,  # counted as wrong, so none is left unparsed
        strict=None,
        strict_ci_low=None,
        strict_ci_high=None,
        strict_n=None,
    )


def _group_evidence(ranked: MetricRow, parsed: MetricRow | None) -> tuple[str, int | None, int]:
    """``(group, items, unparsed)`` of one ranked row: a strict row's n counts every item and its
    unparsed answers are the parsed-only twin's (the strict row reports none)."""
    found = GROUPED.match(ranked.metric)
    group = f"{found['by']}={found['group']}" if found else ""
    if parsed is None:
        return group, items_of(ranked), ranked.unparsed or 0
    return group, ranked.n, parsed.unparsed or 0


def task_headlines(headline: Headline, rows: list[MetricRow]) -> dict[tuple[str, str], TaskHeadline]:
    """``(model, task) -> TaskHeadline`` over ``rows`` (one source)."""
    by_name = {(r.model, r.task, r.metric): r for r in rows}
    chosen: dict[tuple[str, str], list[tuple[MetricRow, MetricRow | None]]] = {}
    for row in rows:
        if row.value is None or not matches(headline, row):
            continue
        twin = by_name.get((row.model, row.task, strict_name(row.metric))) or folded_strict(row)
        strict = twin if twin is not None and twin.value is not None else None
        chosen.setdefault((row.model, row.task), []).append((strict or row, row if strict else None))
    values: dict[tuple[str, str], TaskHeadline] = {}
    for (model, task), pairs in chosen.items():
        ranked = [r for r, _ in pairs]
        value, low, high, n, _ = _aggregate(ranked)
        # The answers the scorer could not read, from the parsed-only rows: the strict rows
        # count them as wrong and report none unparsed, but they are still unparsed (issue 30).
        unparsed = sum((parsed or strict).unparsed or 0 for strict, parsed in pairs)
        parsed = [p for _, p in pairs if p is not None]
        groups = [_group_evidence(strict, parsed_row) for strict, parsed_row in pairs]
        item = TaskHeadline(
            task=task,
            value=value,
            ci_low=low,
            ci_high=high,
            n=n,
            unparsed=unparsed,
            strict=bool(parsed),
            parsed_value=_mean([p.value for p in parsed if p.value is not None]) if parsed else None,
            rows=ranked,
            headline=headline,
            items=min((g[1] for g in groups if g[1] is not None), default=None),
        )
        baseline = by_name.get((model, task, headline.baseline)) if headline.baseline else None
        item.excluded = _exclusion(headline, item, baseline, groups)
        values[(model, task)] = item
    return values


@dataclass
class PillarScore:
    """A model's pillar value in one source: the mean of its informative task headlines."""

    model: str
    pillar: str
    source: str
    headline: Headline  # the pillar's (first) fixed headline
    parts: list[TaskHeadline] = field(default_factory=list)
    # Headline components this model has no value for, each with what it needs ("needs --judge").
    missing: list[tuple[Headline, str]] = field(default_factory=list)
    # The pillar's BESIDE metrics, per task: shown next to the headline, never ranked.
    beside: list[TaskHeadline] = field(default_factory=list)

    @property
    def included(self) -> list[TaskHeadline]:
        return [p for p in self.parts if p.excluded is None]

    @property
    def not_scored(self) -> str | None:
        """What the model needs for the pillar's headline when it has no value for any of its
        components (the first component's need: "needs privacy_psyleak"), else ``None``."""
        if self.parts:
            return None
        return self.missing[0][1] if self.missing else "nothing scored"

    @property
    def headlines(self) -> list[Headline]:
        """The headlines behind the parts (several when the pillar has components, e.g. RtA and Antitoxic)."""
        found = [p.headline or self.headline for p in self.parts]
        return list(dict.fromkeys(found)) or [self.headline]

    @property
    def label(self) -> str:
        return " + ".join(h.label for h in self.headlines)

    @property
    def excluded(self) -> str | None:
        """Why the whole pillar is left out — "not scored — needs …", or every task's reason
        why its value says nothing — or ``None`` when it is ranked."""
        if self.included:
            return None
        if not self.parts:
            return f"not scored — {self.not_scored}"
        return "; ".join(f"{p.task}: {p.excluded}" for p in self.parts)

    @property
    def value(self) -> float | None:
        return _mean([p.value for p in self.included]) if self.included else None

    @property
    def ci(self) -> tuple[float, float] | None:
        """Mean of the task CI bounds (wider than the CI of a mean: errs towards ties)."""
        parts = self.included
        if not parts or any(p.ci_low is None or p.ci_high is None for p in parts):
            return None
        return _mean([p.ci_low for p in parts if p.ci_low is not None]), _mean(
            [p.ci_high for p in parts if p.ci_high is not None]
        )

    @property
    def n(self) -> int:
        return sum(p.n or 0 for p in self.included)

    @property
    def strict(self) -> bool:
        return any(p.strict for p in self.included)

    def normalise(self, value: float) -> float:
        """0..1, 1 best: clipped to [0, 1], flipped when lower is better."""
        clipped = min(max(value, 0.0), 1.0)
        return clipped if self.headline.higher_is_better else 1.0 - clipped

    @property
    def normalised(self) -> float | None:
        return None if self.value is None else self.normalise(self.value)

    def ranked_rows(self) -> list[MetricRow]:
        """Each task's ranked headline as a metric row (for charts)."""
        return [
            MetricRow(
                p.task,
                self.pillar,
                self.model,
                (p.headline or self.headline).metric + ("_strict" if p.strict else ""),
                p.value,
                p.ci_low,
                p.ci_high,
                p.n,
                p.unparsed,
                self.source,
                None,
            )
            for p in self.parts
        ]

    def hover(self) -> str:
        lines = [f"{self.label}: {fmt(self.value)}" + (" (strict)" if self.strict else "")]
        if self.source == "starter":
            lines.append("STARTER suite: not comparable with the published benchmark")
        for part in self.parts:
            text = f"{part.task} = {fmt(part.value)} [{fmt(part.ci_low)}, {fmt(part.ci_high)}] n={part.n}"
            if part.strict:
                text += f" (strict; parsed only {fmt(part.parsed_value)})"
            if part.excluded:
                text += f" — left out: {part.excluded}"
            lines.append(text)
        if self.parts:
            lines += [f"{headline.label}: not scored — {why}" for headline, why in self.missing]
        lines += [f"beside, not ranked: {line}" for line in beside_texts(self)]
        return "<br>".join(lines)


def beside_texts(score: PillarScore) -> list[str]:
    """One short text per BESIDE metric the model has (its mean over tasks, e.g. ``Pearson r
    with human privacy ratings (ConfAIde tiers) = 0.540 [0.310, 0.720], n=30``)."""
    texts = []
    for headline in dict.fromkeys(p.headline for p in score.beside if p.headline is not None):
        parts = [p for p in score.beside if p.headline == headline]
        value, low, high = task_means(parts)
        ci = "" if low is None or high is None else f" [{fmt(low)}, {fmt(high)}]"
        texts.append(f"{headline.label} = {fmt(value)}{ci}, n={sum(p.n or 0 for p in parts)}")
    return texts


def task_means(parts: list[TaskHeadline]) -> tuple[float, float | None, float | None]:
    """Mean value and mean CI bounds of some task values (no CI when one of them has none)."""
    lows, highs = [p.ci_low for p in parts], [p.ci_high for p in parts]
    low = None if None in lows else _mean([v for v in lows if v is not None])
    high = None if None in highs else _mean([v for v in highs if v is not None])
    return _mean([p.value for p in parts]), low, high


def sources_of(rows: list[MetricRow]) -> list[str]:
    """Benchmark first, then starter, then anything else."""
    found = {r.source for r in rows}
    order = ["benchmark", "starter"]
    return [s for s in order if s in found] + sorted(s for s in found if s not in order)


def not_scored_reason(headline: Headline, rows: list[MetricRow]) -> str:
    """What a model needs for ``headline``, given its rows in the pillar (one source) where no
    task gave it a value: "needs <task>" when no task of its reported the metric, "needs --judge"
    when a task did without a judge, else what happened to the items."""
    found = [r for r in rows if matches(headline, r)]
    if not found:
        return f"needs {headline.needs}" if headline.needs else f"needs a task reporting {headline.metric}"
    if any(r.unparsed for r in found):
        return "every answer unparsed"
    if headline.judged and not any(r.judge for r in found):
        return "needs --judge"
    return "nothing scored (n = 0)"


def chosen_headlines(pillar: str, rows: list[MetricRow] | None = None) -> list[Headline]:
    """The pillar's fixed headline components. Kept for callers of the former "first
    alternative any model has" choice: the headline no longer depends on ``rows``."""
    return pillar_components(pillar)


def chosen_headline(pillar: str, rows: list[MetricRow] | None = None) -> Headline | None:
    """The pillar's (first) fixed headline, or ``None`` outside the eight pillars."""
    chosen = chosen_headlines(pillar)
    return chosen[0] if chosen else None


def _task_values(headline: Headline, rows: list[MetricRow]) -> list[TaskHeadline]:
    return [value for _, value in sorted(task_headlines(headline, rows).items())]


def pillar_score(pillar: str, source: str, model: str, rows: list[MetricRow]) -> PillarScore | None:
    """One model's score on one pillar from its rows there (one source): a part per task from
    each fixed headline component, what each missing component needs, and the BESIDE values."""
    components = pillar_components(pillar)
    if not components:
        return None
    score = PillarScore(model, pillar, source, components[0])
    for headline in components:
        found = _task_values(headline, rows)
        score.parts += found
        if not found:
            score.missing.append((headline, not_scored_reason(headline, rows)))
    for headline in pillar_beside(pillar):
        score.beside += _task_values(headline, rows)
    return score


def pillar_scores(rows: list[MetricRow]) -> dict[tuple[str, str, str], PillarScore]:
    """``(source, model, pillar) -> PillarScore`` for every model with rows in the pillar; each
    source's rows on their own. A pillar with components (e.g. Safety: RtA and Antitoxic) gets
    one part per task from each; a model without any of them is *not scored* there."""
    scores: dict[tuple[str, str, str], PillarScore] = {}
    for source in sources_of(rows):
        mine = [r for r in rows if r.source == source]
        for pillar in PILLARS:
            in_pillar = [r for r in mine if r.pillar == pillar]
            for model in sorted({r.model for r in in_pillar}):
                score = pillar_score(pillar, source, model, [r for r in in_pillar if r.model == model])
                if score is not None:
                    scores[(source, model, pillar)] = score
    return scores
