r"""Pure statistics of a judge panel: how verdicts combine, and how stable a judge is.

* **Scales** combine by the mean of the judges' ratings, :math:`\bar v = \frac1k \sum_j v_j`
  over the :math:`k` judges whose verdict was parsed.
* **Yes/no and categories** combine by strict majority: the value given by more than half of
  the :math:`k` parsed verdicts, :math:`\#\{j : v_j = c\} > k/2`. Without one the item is
  *undecided* (never guessed, never the first judge's call).
* **Stability**: each judgement is asked again :math:`R` times at the judge's temperature; a
  unit (one item, one judge) *changed* when any repeat differs from the first verdict,
  :math:`c_u = \mathbb 1[\exists r: v_{u,r} \ne v_{u,0}]`. The share :math:`\frac1U\sum_u c_u`
  comes with a Wilson 95% CI; units with an unparsed verdict are left out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TypeVar

import numpy as np

from trustmh.stats.intervals import Estimate, proportion_estimate

T = TypeVar("T")


class Undecided:
    """The panel had no strict majority."""

    def __repr__(self) -> str:
        return "UNDECIDED"


UNDECIDED = Undecided()


def panel_mean(values: Sequence[float | None]) -> float | None:
    """Mean of the parsed (non-``None``) ratings; ``None`` when no judge gave one."""
    parsed = [float(v) for v in values if v is not None]
    return sum(parsed) / len(parsed) if parsed else None


def strict_majority(values: Sequence[T | None]) -> T | Undecided | None:
    """The value more than half of the parsed votes give; :data:`UNDECIDED` without one; ``None`` with no vote."""
    parsed = [v for v in values if v is not None]
    if not parsed:
        return None
    value, count = Counter(parsed).most_common(1)[0]
    return value if count * 2 > len(parsed) else UNDECIDED


def changed_share(first: Sequence[object | None], repeats: Sequence[Sequence[object | None]]) -> Estimate:
    """Share of units whose repeated verdicts differ from their first one (see the module docstring).

    ``first[u]`` is unit ``u``'s first verdict, ``repeats[u]`` its repeats; a unit with any
    ``None`` (unparsed) or no repeat is left out of ``n``.
    """
    flags = [
        float(any(again != verdict for again in again_list))
        for verdict, again_list in zip(first, repeats, strict=True)
        if verdict is not None and again_list and all(again is not None for again in again_list)
    ]
    return proportion_estimate(np.asarray(flags, dtype=float))
