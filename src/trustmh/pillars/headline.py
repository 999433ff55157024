"""What a pillar's headline number is: declared once, beside the pillar's tasks.

Each pillar package has a ``headline.py`` with ``HEADLINES``: alternatives in order of
preference. The report uses, per pillar and per source (starter / benchmark), the first
alternative any model has, so every model in a leaderboard is ranked on the same quantity.

A headline declared with ``tasks`` is a *component* of its own, for those tasks (e.g. Safety:
RtA on the jailbreak tasks, and Antitoxic on ``safety_antitoxic``, as TrustMH-Bench's Safety
ranking has both): each component chooses its first alternative as above, and the pillar's
value is the mean over all its tasks' headline values. The components of a pillar must agree
on direction and scale (checked by :func:`headline_components`), so the mean means something.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from trustmh import PILLARS


@dataclass(frozen=True)
class Headline:
    """One headline metric of a pillar.

    ``metric`` is the base name the scorer reports (``accuracy``); with ``grouped_by`` the
    scorer reports it per group as ``metric[<grouped_by>=<group>]`` and the task's headline
    is the mean over the groups. ``tasks`` limits it to some tasks (empty = any task of the
    pillar). A pillar value is the mean over its tasks.

    Rules that make a value carry no information (the report leaves it out of the ranking
    and says why): ``constant_is_uninformative`` — an estimate whose CI collapsed onto its
    value (nothing varied, e.g. zero refusals in every group gives a "perfect" range of 0);
    ``baseline``/``chance`` — the task's ``baseline`` metric (e.g. the clean score) has a
    CI reaching down to the task's chance level, so a drop from it means nothing.

    ``sample_field``: for a headline that is the mean of a per-sample score field (a rate or
    an accuracy), that field, so the report can compare two models item by item (a paired
    bootstrap over the samples both answered, :mod:`trustmh.report.ranking`);
    ``unparsed_as`` is the value an unparsed sample takes in the strict variant, as the
    scorer's metric declares it. Headlines that are not such a mean (a correlation, a
    macro F1, a range over groups) leave it ``None`` and are compared by their CIs.
    """

    metric: str
    higher_is_better: bool
    label: str
    # How the value reads in a sentence: "{value}" is the formatted value with its CI.
    sentence: str
    percent: bool = True  # a rate, shown as 27% [23, 31]; else a number (r = 0.54)
    tasks: tuple[str, ...] = ()
    grouped_by: str | None = None
    constant_is_uninformative: bool = False
    baseline: str | None = None
    chance: tuple[tuple[str, float], ...] = ()
    sample_field: str | None = None
    unparsed_as: float | None = None

    def applies_to(self, task: str) -> bool:
        return not self.tasks or task in self.tasks

    def chance_of(self, task: str) -> float | None:
        return dict(self.chance).get(task)


def pillar_headlines(pillar: str) -> tuple[Headline, ...]:
    """The pillar's declared headline alternatives (none for a pillar without a declaration)."""
    if pillar not in PILLARS:
        return ()
    module = importlib.import_module(f"trustmh.pillars.{pillar}.headline")
    return tuple(module.HEADLINES)


def headline_components(headlines: tuple[Headline, ...]) -> list[tuple[Headline, ...]]:
    """The alternatives grouped by the tasks they are limited to (``tasks=()`` = every other task),
    in order of first declaration."""
    components: dict[tuple[str, ...], list[Headline]] = {}
    for headline in headlines:
        components.setdefault(headline.tasks, []).append(headline)
    if len(components) > 1:  # alternatives of one component may differ; components are averaged
        first = headlines[0]
        for headline in headlines:
            if (headline.higher_is_better, headline.percent) != (first.higher_is_better, first.percent):
                raise ValueError(
                    f"headline {headline.metric} must agree with {first.metric} on direction and scale: "
                    "a pillar's value is the mean of its components' task headlines"
                )
    return [tuple(alternatives) for alternatives in components.values()]


def pillar_components(pillar: str) -> list[tuple[Headline, ...]]:
    return headline_components(pillar_headlines(pillar))


def all_headlines() -> dict[str, tuple[Headline, ...]]:
    return {pillar: pillar_headlines(pillar) for pillar in PILLARS}
