"""What a pillar's headline number is: declared once, beside the pillar's tasks.

Each pillar package has a ``headline.py`` with ``HEADLINES``: the pillar's fixed headline, one
metric per component, whatever data are present. A model (per source: starter / benchmark) that
lacks it is *not scored* on the pillar — "needs <what>" (``Headline.needs``) — and is not ranked
there; nothing else stands in for it. ``BESIDE`` (optional) names secondary metrics the report
and the run summary show beside the headline, marked as such and never ranked (e.g. Privacy:
ConfAIde's Pearson r beside PsyLeak's leak rate; Safety: the offline keyword detector's RtA
beside the judged RtA).

A headline declared with ``tasks`` is a *component* of its own, for those tasks (e.g. Safety:
RtA on the jailbreak tasks, and Antitoxic on ``safety_antitoxic``, as TrustMH-Bench's Safety
ranking has both): the pillar's value is the mean over all its tasks' headline values. The
components of a pillar must agree on direction and scale, and each set of tasks has exactly one
headline (checked by :func:`headline_components`), so the mean means something.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from trustmh import PILLARS
from trustmh.tasking.headline import Headline


def _declaration(pillar: str) -> ModuleType | None:
    if pillar not in PILLARS:
        return None
    return importlib.import_module(f"trustmh.pillars.{pillar}.headline")


def pillar_headlines(pillar: str) -> tuple[Headline, ...]:
    """The pillar's fixed headline components (none for a name outside the eight pillars)."""
    module = _declaration(pillar)
    return () if module is None else tuple(module.HEADLINES)


def pillar_beside(pillar: str) -> tuple[Headline, ...]:
    """The metrics shown beside the pillar's headline, never ranked."""
    module = _declaration(pillar)
    return () if module is None else tuple(getattr(module, "BESIDE", ()))


def headline_components(headlines: tuple[Headline, ...], beside: tuple[Headline, ...] = ()) -> list[Headline]:
    """The headlines as the pillar's components, checked: one headline per set of tasks (no
    alternatives: the headline is fixed), one direction and scale across components (their
    values are averaged), and no metric both a headline and shown beside it."""
    seen: dict[tuple[str, ...], Headline] = {}
    for headline in headlines:
        if headline.tasks in seen:
            raise ValueError(
                f"headlines {seen[headline.tasks].metric} and {headline.metric} are declared for the same tasks: "
                "a pillar component has exactly one fixed headline (put the other in BESIDE)"
            )
        seen[headline.tasks] = headline
        first = headlines[0]
        if (headline.higher_is_better, headline.percent) != (first.higher_is_better, first.percent):
            raise ValueError(
                f"headline {headline.metric} must agree with {first.metric} on direction and scale: "
                "a pillar's value is the mean of its components' task headlines"
            )
    both = {h.metric for h in headlines} & {h.metric for h in beside}
    if both:
        raise ValueError(f"{', '.join(sorted(both))}: declared both as a headline and beside it")
    return list(headlines)


def pillar_components(pillar: str) -> list[Headline]:
    return headline_components(pillar_headlines(pillar), pillar_beside(pillar))


def all_headlines() -> dict[str, tuple[Headline, ...]]:
    return {pillar: pillar_headlines(pillar) for pillar in PILLARS}
