"""Corrected attribute means per response model: a judge's means corrected by the human ratings
(PPI++, :mod:`trustmh.stats.ppi`).

The use: a judge rated many conversations' responses of a model (say, yours, from ``trustmh
generate`` and ``trustmh judge``), and clinicians rated a random subset of the same
conversations in the human file. Per judge, response model and attribute (and CSS/ARS), the
*labelled* items are the conversations where both the humans and the judge gave a score, the
*unlabelled* ones those the judge scored and the humans did not (absent from the human file,
an empty cell, or an unparsed one). The corrected mean estimates the mean human rating over
every conversation the judge scored, and is exactly the human mean when the humans rated them all
(no unlabelled items: λ = 0), as in MentalAlign-70k as released.

Assumption: the human-rated conversations are a random sample of those the judge scored. A
response model no human rated has no labels and is not corrected (it is not listed); neither is
a model the judge did not rate or one left out for the judge (its own family).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trustmh.data.loaders.mentalalign import OK, RatingTable
from trustmh.mentalalign.schema import ALL_ATTRIBUTES
from trustmh.stats.ppi import ppi_mean

MIN_LABELS = 2


def _scores(table: RatingTable) -> np.ndarray:
    """``(conversations, keys, attributes + composites)`` with NaN where the score is not OK."""
    from trustmh.align.analysis import with_composites

    scores, status = with_composites(table)
    return np.where(status == OK, scores, np.nan)


def corrected_means(
    human: RatingTable, judge_name: str, judge: RatingTable, excluded: tuple[str, ...] = ()
) -> list[dict[str, Any]]:
    """One entry per response model and attribute (see the module docstring)."""
    human_scores, judge_scores = _scores(human), _scores(judge)
    human_row = {conv: i for i, conv in enumerate(human.conv_ids)}
    rows = np.array([human_row.get(conv, -1) for conv in judge.conv_ids])
    out: list[dict[str, Any]] = []
    for k, key in enumerate(judge.keys):
        if key not in human.keys or key in excluded:
            continue
        h = np.full((len(rows), len(ALL_ATTRIBUTES)), np.nan)
        known = rows >= 0
        h[known] = human_scores[rows[known], human.keys.index(key)]
        j = judge_scores[:, k]
        for a, attribute in enumerate(ALL_ATTRIBUTES):
            judged = np.isfinite(j[:, a])
            labelled = judged & np.isfinite(h[:, a])
            if labelled.sum() < MIN_LABELS:
                continue
            result = ppi_mean(h[labelled, a], j[labelled, a], j[judged & ~labelled, a])
            out.append({"judge": judge_name, "model": key, "attribute": attribute, **result.to_json()})
    return out
