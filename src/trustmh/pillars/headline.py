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

from trustmh import PILLARS
from trustmh.tasking.headline import Headline


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
