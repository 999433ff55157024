r"""A seeded stratified simple random sample without replacement, with each item's inclusion probability.

Stratum :math:`h` holds :math:`N_h` items of which :math:`n_h` are drawn, uniformly at random
and without replacement; every item of the stratum is then drawn with probability

.. math:: \pi_i = n_h / N_h

and weighs :math:`w_i = 1 / \pi_i` in the estimators that undo the unequal probabilities
(:func:`trustmh.stats.ppi.ppi_mean_weighted`). One stratum is the plain simple random sample.

Allocation of the sample size :math:`n` over the strata:

* ``equal``: as evenly as possible (:math:`n_h \approx n / H`), a stratum smaller than its share
  given whole and the rest shared among the others — so a rare stratum (the items a judge
  flagged) is drawn far more often than its size would give it;
* ``proportional``: :math:`n_h \approx n N_h / N` (largest remainders), every :math:`\pi_i \approx n / N`.

The same items, seed and size give the same sample (strata are visited in sorted order and
drawn from one ``numpy`` generator).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

ALLOCATIONS = ("equal", "proportional")


@dataclass(frozen=True)
class Draw:
    """The drawn items (indices into the population, sorted) and each one's inclusion probability."""

    indices: list[int]
    inclusion: list[float]
    allocation: dict[str, tuple[int, int]]  # stratum -> (drawn n_h, stratum size N_h)


def equal_allocation(sizes: dict[str, int], total: int) -> dict[str, int]:
    """``total`` spread as evenly as possible over the strata, none beyond its size."""
    left, out = total, dict.fromkeys(sizes, 0)
    open_strata = sorted(sizes)
    while left > 0 and open_strata:
        share, extra = divmod(left, len(open_strata))
        for k, name in enumerate(open_strata):
            take = min(share + (1 if k < extra else 0), sizes[name] - out[name])
            out[name] += take
            left -= take
        open_strata = [name for name in open_strata if out[name] < sizes[name]]
    return out


def proportional_allocation(sizes: dict[str, int] | dict[str, float], total: int) -> dict[str, int]:
    """``n N_h / N`` rounded by largest remainders (ties to the sorted stratum name)."""
    population = sum(sizes.values())
    exact = {name: total * size / population for name, size in sizes.items()}
    out = {name: int(np.floor(value)) for name, value in exact.items()}
    order = sorted(sizes, key=lambda name: (-(exact[name] - out[name]), name))
    for name in order[: total - sum(out.values())]:
        out[name] += 1
    return out


def floored_allocation(capacity: dict[str, int], shares: dict[str, float], total: int, floor: int) -> dict[str, int]:
    r"""``total`` over the strata: each first gets :math:`\min(\text{floor}, C_h)`, the rest goes in
    proportion to ``shares`` :math:`W_h` (largest remainders), none beyond its capacity :math:`C_h`
    (what a full stratum cannot take goes to the others, in the same proportion).

    For a stratified mean :math:`\sum_h W_h \bar y_h` whose strata have alike spreads, Neyman's
    allocation is :math:`n_h \propto W_h`; the floor keeps a small stratum's own variance
    estimable. A ``total`` below the floors is spread evenly (:func:`equal_allocation`)."""
    total = min(total, sum(capacity.values()))
    out = {name: min(floor, size) for name, size in capacity.items()}
    if sum(out.values()) >= total:
        return equal_allocation(capacity, total)
    left = total - sum(out.values())
    open_strata = [name for name in sorted(capacity) if out[name] < capacity[name]]
    while left > 0 and open_strata:
        weights = {name: shares.get(name, 0.0) for name in open_strata}
        if sum(weights.values()) <= 0:
            weights = dict.fromkeys(open_strata, 1.0)
        extra = proportional_allocation(weights, left)
        moved = 0
        for name in open_strata:
            take = min(extra[name], capacity[name] - out[name])
            out[name] += take
            moved += take
        left -= moved
        open_strata = [name for name in open_strata if out[name] < capacity[name]]
        if moved == 0:
            break
    return out


def stratified_sample(strata: Sequence[str], size: int, seed: int, allocation: str | dict[str, int] = "equal") -> Draw:
    """Draw ``size`` of the items whose strata are ``strata`` (one label per item; see the module
    docstring). ``allocation`` may also be the count to draw from each stratum."""
    if isinstance(allocation, str) and allocation not in ALLOCATIONS:
        raise ValueError(f"allocation must be one of {', '.join(ALLOCATIONS)}, not {allocation!r}")
    if size < 1:
        raise ValueError(f"sample size {size}: expected at least 1")
    members: dict[str, list[int]] = {}
    for index, stratum in enumerate(strata):
        members.setdefault(stratum, []).append(index)
    sizes = {name: len(items) for name, items in members.items()}
    size = min(size, len(strata))
    if isinstance(allocation, dict):
        counts = {name: min(allocation.get(name, 0), sizes[name]) for name in sizes}
    else:
        counts = (equal_allocation if allocation == "equal" else proportional_allocation)(sizes, size)
    rng = np.random.default_rng(seed)
    chosen: dict[int, float] = {}
    for name in sorted(members):
        drawn: list[int] = (
            list(rng.choice(len(members[name]), size=counts[name], replace=False)) if counts[name] else []
        )
        for position in drawn:
            chosen[members[name][int(position)]] = counts[name] / sizes[name]
    order = sorted(chosen)
    return Draw(order, [chosen[i] for i in order], {name: (counts[name], sizes[name]) for name in sorted(sizes)})
