"""Leaderboards that account for uncertainty: one per source, ties where the data cannot
separate two models.

Within a pillar a model's rank is 1 + the number of models *separated* from it and better.
Two models are compared, in order of preference:

* ``paired_bootstrap``: when the headline is the mean of a per-sample field
  (``Headline.sample_field``) and both models have item values for the same tasks (at least
  ``MIN_N`` shared sample ids in each), a paired bootstrap of the headline difference over
  the shared ids (:mod:`trustmh.stats.paired_bootstrap`); separated when its 95% CI
  excludes 0. Strict headlines count an unparsed item as ``Headline.unparsed_as``; otherwise
  an item unparsed for either model is not shared.
* ``ci_overlap`` otherwise (a correlation, a macro F1, a range over groups; logs without
  item values): separated when the two headline 95% CIs do not overlap, a conservative test
  (it errs towards ties); a value reported without a CI is compared by its value alone.

Models no other model separates share a rank (a tie group). As in TrustMH-Bench's ranking
figure, a model's overall score is the mean of its pillar ranks over the pillars it has; a
pillar it lacks, is not scored on (no value for the pillar's fixed headline) or whose headline
carries no information, is left out — never counted as zero. The metrics shown beside a
headline (``BESIDE``) are listed with the leaderboard and never take part in it. Overall tie
groups are the models with the same mean rank, joined with every model no pillar's comparison
separates from them (:func:`tie_groups`). Each leaderboard says per pillar which method was
used (``tie_method``) and lists every comparison.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from trustmh import PILLARS
from trustmh.pillars.headline import pillar_components
from trustmh.report.headline import MIN_N, PillarScore, TaskHeadline
from trustmh.stats.paired_bootstrap import paired_bootstrap_difference

# (model, task, sample field) -> sample id -> value (NaN: unparsed), see report.collect.
ItemValues = Mapping[tuple[str, str, str], Mapping[str, float]]
PAIRED, OVERLAP = "paired_bootstrap", "ci_overlap"

# The radar needs this many pillars shared by every model shown; else a dot plot.
RADAR_MIN_PILLARS = 3
# A ranking needs this many ranked models; one model alone is shown with its scores only.
MIN_RANKED_MODELS = 2


def separated_better(a: PillarScore, b: PillarScore) -> bool:
    """``a`` is better than ``b`` and their CIs do not overlap."""
    assert a.value is not None and b.value is not None
    higher = a.headline.higher_is_better
    a_ci, b_ci = a.ci, b.ci
    if a_ci is None or b_ci is None:
        return a.value > b.value if higher else a.value < b.value
    return a_ci[0] > b_ci[1] if higher else a_ci[1] < b_ci[0]


def _item_values(score: PillarScore, part: TaskHeadline, items: ItemValues) -> dict[str, float] | None:
    """The per-sample values behind one task headline (strict: unparsed as ``unparsed_as``)."""
    headline = part.headline or score.headline  # a pillar with components has one per task
    if headline.sample_field is None:
        return None
    values = items.get((score.model, part.task, headline.sample_field))
    if values is None:
        return None
    if not part.strict:
        return dict(values)
    if headline.unparsed_as is None:
        return None
    fill = headline.unparsed_as
    return {sample_id: v if math.isfinite(v) else fill for sample_id, v in values.items()}


def paired_items(a: PillarScore, b: PillarScore, items: ItemValues) -> list[tuple[np.ndarray, np.ndarray]] | None:
    """Per task, the two models' values on their shared sample ids; ``None`` when the two
    headlines cannot be compared item by item (see the module docstring)."""
    tasks_a = {p.task: p for p in a.included}
    tasks_b = {p.task: p for p in b.included}
    if not tasks_a or set(tasks_a) != set(tasks_b):
        return None
    pairs = []
    for task in sorted(tasks_a):
        if (tasks_a[task].headline or a.headline) != (tasks_b[task].headline or b.headline):
            return None
        values_a = _item_values(a, tasks_a[task], items)
        values_b = _item_values(b, tasks_b[task], items)
        if values_a is None or values_b is None:
            return None
        shared = sorted(set(values_a) & set(values_b))
        if len(shared) < MIN_N:
            return None
        pairs.append((np.array([values_a[i] for i in shared]), np.array([values_b[i] for i in shared])))
    return pairs


@dataclass
class Comparison:
    """How two models of one pillar compare: ``winner`` is the better model when separated."""

    pillar: str
    models: tuple[str, str]
    method: str
    winner: str | None
    difference: float | None = None  # first minus second, on the shared items (paired only)
    ci: tuple[float, float] | None = None
    n: int | None = None

    def as_dict(self) -> dict[str, object]:
        return {
            "pillar": self.pillar,
            "models": list(self.models),
            "method": self.method,
            "separated": self.winner is not None,
            "better": self.winner,
            "difference": self.difference,
            "ci": None if self.ci is None else list(self.ci),
            "n_shared": self.n,
        }


def compare(a: PillarScore, b: PillarScore, items: ItemValues) -> Comparison:
    """Paired bootstrap over shared items when possible, else CI overlap."""
    pairs = paired_items(a, b, items)
    result = paired_bootstrap_difference(pairs) if pairs is not None else None
    if result is not None:
        a_better = result.difference > 0 if a.headline.higher_is_better else result.difference < 0
        winner = (a.model if a_better else b.model) if result.separated else None
        ci = (result.ci_low, result.ci_high)
        return Comparison(a.pillar, (a.model, b.model), PAIRED, winner, result.difference, ci, result.n)
    winner = a.model if separated_better(a, b) else b.model if separated_better(b, a) else None
    return Comparison(a.pillar, (a.model, b.model), OVERLAP, winner)


def pillar_comparisons(scores: list[PillarScore], items: ItemValues | None = None) -> list[Comparison]:
    """Every pair of ranked models within one pillar."""
    ranked = sorted((s for s in scores if s.value is not None), key=lambda s: s.model)
    return [compare(a, b, items or {}) for a, b in combinations(ranked, 2)]


def pillar_ranks(scores: list[PillarScore], items: ItemValues | None = None) -> dict[str, int]:
    """``model -> rank`` within one pillar: 1 + models separated from it and better."""
    return ranks_from(scores, pillar_comparisons(scores, items))


def ranks_from(scores: list[PillarScore], comparisons: list[Comparison]) -> dict[str, int]:
    ranked = [s.model for s in scores if s.value is not None]
    beaten = {model: 0 for model in ranked}
    for comparison in comparisons:
        if comparison.winner is not None:
            loser = comparison.models[1] if comparison.winner == comparison.models[0] else comparison.models[0]
            beaten[loser] += 1
    return {model: 1 + count for model, count in beaten.items()}


def tie_method(comparisons: list[Comparison]) -> str | None:
    """``paired_bootstrap`` or ``ci_overlap`` when every comparison used it, else ``mixed``."""
    methods = {c.method for c in comparisons}
    if not methods:
        return None
    return methods.pop() if len(methods) == 1 else "mixed"


@dataclass
class LeaderboardRow:
    model: str
    mean_rank: float
    tie_group: int
    pillar_ranks: dict[str, int]


@dataclass
class Leaderboard:
    source: str
    pillars: list[str]
    rows: list[LeaderboardRow]
    # (model, pillar) -> why its headline is left out
    excluded: dict[tuple[str, str], str] = field(default_factory=dict)
    unranked: list[str] = field(default_factory=list)  # models with no informative headline
    comparisons: list[Comparison] = field(default_factory=list)
    # (model, pillar) -> what the model needs for the pillar's fixed headline ("needs --judge")
    not_scored: dict[tuple[str, str], str] = field(default_factory=dict)
    # The BESIDE values of each (model, pillar), per task: shown, never ranked.
    beside: list[dict[str, object]] = field(default_factory=list)

    @property
    def tie_methods(self) -> dict[str, str | None]:
        """Per pillar, how models were separated (see :func:`tie_method`)."""
        return {p: tie_method([c for c in self.comparisons if c.pillar == p]) for p in self.pillars}

    def shared_pillars(self) -> list[str]:
        """Pillars every ranked model has."""
        return [p for p in self.pillars if self.rows and all(p in r.pillar_ranks for r in self.rows)]

    @property
    def radar(self) -> bool:
        return len(self.shared_pillars()) >= RADAR_MIN_PILLARS

    def as_dict(self) -> dict[str, object]:
        return {
            "source": self.source,
            # False with a single model: its scores are shown, never a "rank 1" (issue 30)
            "ranked": len(self.rows) >= MIN_RANKED_MODELS,
            "pillars": self.pillars,
            "rows": [
                {
                    "model": r.model,
                    "mean_rank": r.mean_rank,
                    "tie_group": r.tie_group,
                    "pillar_ranks": r.pillar_ranks,
                }
                for r in self.rows
            ],
            # The fixed headline metric(s) of every pillar, whatever data are present.
            "headlines": {p: [h.metric for h in pillar_components(p)] for p in PILLARS},
            "excluded": [{"model": m, "pillar": p, "reason": why} for (m, p), why in self.excluded.items()],
            "not_scored": [{"model": m, "pillar": p, "needs": why} for (m, p), why in self.not_scored.items()],
            "beside": self.beside,
            "unranked": self.unranked,
            "tie_method": self.tie_methods,
            "comparisons": [c.as_dict() for c in self.comparisons],
        }


def leaderboard(source: str, scores: list[PillarScore], items: ItemValues | None = None) -> Leaderboard:
    """The leaderboard of one source from its pillar scores (and item values, if read)."""
    models = sorted({s.model for s in scores})
    excluded = {(s.model, s.pillar): s.excluded for s in scores if s.excluded and s.parts}
    not_scored = {(s.model, s.pillar): s.not_scored for s in scores if s.not_scored}
    per_model: dict[str, dict[str, int]] = {m: {} for m in models}
    pillars = []
    comparisons: list[Comparison] = []
    for pillar in PILLARS:
        in_pillar = [s for s in scores if s.pillar == pillar and s.value is not None]
        if not in_pillar:
            continue
        pillars.append(pillar)
        mine = pillar_comparisons(in_pillar, items)
        comparisons += mine
        for model, rank in ranks_from(in_pillar, mine).items():
            per_model[model][pillar] = rank
    means = {m: sum(r.values()) / len(r) for m, r in per_model.items() if r}
    order = sorted(means, key=lambda m: (means[m], -len(per_model[m]), m))
    groups = tie_groups(order, means, comparisons)
    rows = [LeaderboardRow(m, means[m], groups[m], per_model[m]) for m in order]
    unranked = [m for m in models if m not in means]
    return Leaderboard(source, pillars, rows, excluded, unranked, comparisons, not_scored, beside_records(scores))


def beside_records(scores: list[PillarScore]) -> list[dict[str, object]]:
    """Each BESIDE value as JSON, marked ``ranked: false`` (it never takes part in a ranking)."""
    return [
        {
            "model": s.model,
            "pillar": s.pillar,
            "task": part.task,
            "metric": (part.headline.metric if part.headline else "") + ("_strict" if part.strict else ""),
            "value": part.value,
            "ci": None if part.ci_low is None or part.ci_high is None else [part.ci_low, part.ci_high],
            "n": part.n,
            "unparsed": part.unparsed,
            "ranked": False,
        }
        for s in sorted(scores, key=lambda s: (s.model, PILLARS.index(s.pillar)))
        for part in s.beside
    ]


def separated_pairs(comparisons: list[Comparison]) -> set[frozenset[str]]:
    """The pairs of models some pillar's comparison separates."""
    return {frozenset(c.models) for c in comparisons if c.winner is not None}


def tie_groups(order: list[str], means: Mapping[str, float], comparisons: list[Comparison]) -> dict[str, int]:
    """``model -> tie group`` (1 = best) over the models in ``order`` (best mean rank first).

    Models with the same mean rank share a group, and so do two models that no comparison in
    any pillar separates (issue 30: the JSON called two models "not separated" while the table
    put them in different groups, since "separated" is not transitive — A and B tied, C beating
    B but not A, gave them different pillar ranks). A group spans every model between the two it
    must join, so groups stay runs of the table's order.
    """
    separated = separated_pairs(comparisons)
    start = list(range(len(order)))  # each model's group begins at this position of the order
    for i, a in enumerate(order):
        for j in range(i + 1, len(order)):
            b = order[j]
            if round(means[a], 9) == round(means[b], 9) or frozenset((a, b)) not in separated:
                for k in range(i + 1, j + 1):
                    start[k] = min(start[k], start[i])
    group_of_start = {position: number for number, position in enumerate(sorted(set(start)), start=1)}
    return {model: group_of_start[start[k]] for k, model in enumerate(order)}


def leaderboards(scores: dict[tuple[str, str, str], PillarScore], items: ItemValues | None = None) -> list[Leaderboard]:
    """One leaderboard per source (benchmark first), never mixing sources."""
    sources = list(dict.fromkeys(source for source, _, _ in sorted(scores, key=lambda k: k[0] != "benchmark")))
    return [leaderboard(src, [s for (source, _, _), s in scores.items() if source == src], items) for src in sources]
