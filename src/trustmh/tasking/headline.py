"""One headline metric of a pillar, or one metric shown beside it, as each pillar declares them
in ``pillars/<pillar>/headline.py`` (``HEADLINES`` and ``BESIDE``).

The type sits with the task declarations so a pillar can declare its headlines without
importing :mod:`trustmh.pillars.headline`, which looks every pillar's declaration up.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Headline:
    """One headline metric of a pillar (or a metric shown beside it, declared the same way).

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

    ``needs``: what a model lacking this metric must run ("privacy_psyleak"), shown as "not
    scored — needs privacy_psyleak"; ``judged``: the metric is a judge's, so a task that reports
    it but ran without a judge "needs --judge".
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
    needs: str = ""
    judged: bool = False

    def applies_to(self, task: str) -> bool:
        return not self.tasks or task in self.tasks

    def chance_of(self, task: str) -> float | None:
        return dict(self.chance).get(task)
