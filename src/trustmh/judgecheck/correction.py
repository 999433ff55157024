"""The judge's mean of a field corrected by the human labels (PPI++, :mod:`trustmh.stats.ppi`).

For a field that is a mean or a rate (``scale`` and ``binary`` kinds) and items that are whole
samples: the run's judge scored every sample; the human file labels some of them. The label
of an item is the mean of its human ratings (a binary field: the share of raters saying 1, so
the target is the mean human rate). Labelled items whose verdict is unparsed, and unlabelled
verdicts that are unparsed, are left out and counted: PPI needs a judge score beside each label.

Not computed (``skipped`` says why): nominal fields (no mean), per-turn items (the turns of a
conversation are not independent; the PPI interval assumes independent items), fewer than 2
labelled items. The estimate assumes the labelled samples are a random sample of the run's
samples: labels chosen for being hard, or from another run, bias it. A sample drawn with unequal
probabilities (``trustmh labels export --stratify``) carries each item's weight (1 / its inclusion
probability) in the ratings' ``weight`` column, and the correction then weighs by it
(:func:`trustmh.stats.ppi.ppi_mean_weighted`); the weights must be given for every labelled
item or for none.

A rate (``binary`` field) whose interval is a normal or t one, not the stratified score interval
(:func:`trustmh.stats.ppi.ppi_mean_weighted` says which in ``interval``), gets a ``warning`` when
a stratum holds fewer than :data:`trustmh.stats.ppi_design.RELIABLE_RARER_ANSWERS` labels with the rarer
answer: that interval then covers the truth noticeably less often than it claims.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trustmh.judgecheck.fields import FieldTable
from trustmh.stats.ppi import ppi_mean, ppi_mean_weighted
from trustmh.stats.ppi_design import RELIABLE_RARER_ANSWERS, fewest_rarer_answers

METHOD = "ppi++"
MIN_LABELS = 2


def skipped(reason: str) -> dict[str, Any]:
    return {"method": METHOD, "skipped": reason}


def corrected_mean(table: FieldTable, unit: str) -> dict[str, Any]:
    """The ``correction`` entry of one field of ``judge-check --json`` (see the module docstring)."""
    if table.kind == "nominal":
        return skipped("a nominal field has no mean to correct")
    if unit != "sample":
        return skipped("per-turn items are not independent; the PPI interval needs independent items")
    rated = np.isfinite(table.human).any(axis=1)
    paired = rated & np.isfinite(table.judge)
    if int(paired.sum()) < MIN_LABELS:
        return skipped(f"{int(paired.sum())} labelled item(s) with a parsed verdict; PPI needs at least {MIN_LABELS}")
    with np.errstate(invalid="ignore"):
        labels = np.nanmean(np.where(np.isfinite(table.human[paired]), table.human[paired], np.nan), axis=1)
    weights = table.weights[paired] if len(table.weights) else np.full(int(paired.sum()), np.nan)
    weighted = np.isfinite(weights)
    if weighted.any() and not weighted.all():
        return skipped(f"{int((~weighted).sum())} labelled item(s) have no sampling weight and the others have one")
    if weighted.all():
        population = np.concatenate([table.judge[paired], table.unlabelled])
        result = ppi_mean_weighted(labels, table.judge[paired], weights, population)
    else:
        result = ppi_mean(labels, table.judge[paired], table.unlabelled)
    entry = {
        "method": METHOD,
        "weighted": bool(weighted.all()),
        **result.to_json(),
        "labelled_unparsed": table.judge_unparsed,
        "unlabelled_unparsed": table.unlabelled_unparsed,
    }
    if table.kind == "binary" and result.interval != "score":
        fewest = fewest_rarer_answers(labels, weights if weighted.all() else None)
        if fewest < RELIABLE_RARER_ANSWERS:
            entry["warning"] = (
                f"too few labelled items with the rarer answer for a reliable interval: {fewest:g} in a stratum "
                f"(fewer than {RELIABLE_RARER_ANSWERS}), so the 95% CI covers the truth less often than 95%; "
                "label more items of that stratum"
            )
    return entry
