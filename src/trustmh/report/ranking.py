"""Leaderboards that account for uncertainty: one per source, ties where CIs overlap.

Within a pillar a model's rank is 1 + the number of models *separated* from it and better:
their headline CIs do not overlap. Models no other model separates share a rank (a tie
group). Non-overlapping 95% CIs is a conservative test (it errs towards ties); a value
reported without a CI is compared by its value alone. As in TrustMH-Bench's ranking figure,
a model's overall score is the mean of its pillar ranks over the pillars it has; a pillar
it lacks, or whose headline carries no information, is left out — never counted as zero.
Overall tie groups are the models with the same mean rank.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from trustmh import PILLARS
from trustmh.report.headline import PillarScore

# The radar needs this many pillars shared by every model shown; else a dot plot.
RADAR_MIN_PILLARS = 3


def separated_better(a: PillarScore, b: PillarScore) -> bool:
    """``a`` is better than ``b`` and their CIs do not overlap."""
    assert a.value is not None and b.value is not None
    higher = a.headline.higher_is_better
    a_ci, b_ci = a.ci, b.ci
    if a_ci is None or b_ci is None:
        return a.value > b.value if higher else a.value < b.value
    return a_ci[0] > b_ci[1] if higher else a_ci[1] < b_ci[0]


def pillar_ranks(scores: list[PillarScore]) -> dict[str, int]:
    """``model -> rank`` within one pillar: 1 + models separated from it and better."""
    ranked = [s for s in scores if s.value is not None]
    return {s.model: 1 + sum(separated_better(o, s) for o in ranked if o is not s) for s in ranked}


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

    def shared_pillars(self) -> list[str]:
        """Pillars every ranked model has."""
        return [p for p in self.pillars if self.rows and all(p in r.pillar_ranks for r in self.rows)]

    @property
    def radar(self) -> bool:
        return len(self.shared_pillars()) >= RADAR_MIN_PILLARS

    def as_dict(self) -> dict[str, object]:
        return {
            "source": self.source,
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
            "excluded": [{"model": m, "pillar": p, "reason": why} for (m, p), why in self.excluded.items()],
            "unranked": self.unranked,
        }


def leaderboard(source: str, scores: list[PillarScore]) -> Leaderboard:
    """The leaderboard of one source from its pillar scores."""
    models = sorted({s.model for s in scores})
    excluded = {(s.model, s.pillar): s.excluded for s in scores if s.excluded}
    per_model: dict[str, dict[str, int]] = {m: {} for m in models}
    pillars = []
    for pillar in PILLARS:
        in_pillar = [s for s in scores if s.pillar == pillar and s.value is not None]
        if not in_pillar:
            continue
        pillars.append(pillar)
        for model, rank in pillar_ranks(in_pillar).items():
            per_model[model][pillar] = rank
    means = {m: sum(r.values()) / len(r) for m, r in per_model.items() if r}
    distinct = sorted({round(v, 9) for v in means.values()})
    rows = [LeaderboardRow(m, means[m], distinct.index(round(means[m], 9)) + 1, per_model[m]) for m in means]
    rows.sort(key=lambda r: (r.mean_rank, -len(r.pillar_ranks), r.model))
    return Leaderboard(source, pillars, rows, excluded, [m for m in models if m not in means])


def leaderboards(scores: dict[tuple[str, str, str], PillarScore]) -> list[Leaderboard]:
    """One leaderboard per source (benchmark first), never mixing sources."""
    sources = list(dict.fromkeys(source for source, _, _ in sorted(scores, key=lambda k: k[0] != "benchmark")))
    return [leaderboard(src, [s for (source, _, _), s in scores.items() if source == src]) for src in sources]
