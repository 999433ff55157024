"""Corrected attribute means per response model: a judge's means corrected by the human ratings
(PPI++, :mod:`trustmh.stats.ppi`).

The use: a judge rated many conversations' responses of a model (say, yours, from ``trustmh
generate`` and ``trustmh judge``), and clinicians rated a random subset of the same
conversations in the human file. Per judge, response model and attribute (and CSS/ARS), the
*labelled* items are the conversations where both the humans and the judge gave a score, the
*unlabelled* ones those the judge scored and the humans did not (absent from the human file,
an empty cell, or an unparsed one). The corrected mean estimates the mean human rating over
every conversation the judge scored, and is exactly the human mean when the humans rated them all
(no unlabelled items: λ = 0). In MentalAlign-70k as released nearly all are rated (the few
judge-only items are empty or unparsed human cells).

Assumption: the human-rated conversations are a random sample of those the judge scored. A
response model no human rated has no labels and is not corrected (it is not listed); neither is
a model the judge did not rate or one left out for the judge (its own family).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trustmh.data.loaders.mentalalign import OK, RatingTable
from trustmh.mentalalign.schema import ALL_ATTRIBUTES
from trustmh.stats.ppi import ppi_mean_columns


def _scores(table: RatingTable) -> np.ndarray:
    """``(conversations, keys, attributes + composites)`` with NaN where the score is not OK."""
    from trustmh.align.composites import with_composites

    scores, status = with_composites(table)
    return np.where(status == OK, scores, np.nan)


def corrected_means(
    human: RatingTable, judge_name: str, judge: RatingTable, excluded: tuple[str, ...] = ()
) -> list[dict[str, Any]]:
    """One entry per response model and attribute (see the module docstring)."""
    keys = [key for key in judge.keys if key in human.keys and key not in excluded]
    if not keys:
        return []
    human_scores, judge_scores = _scores(human), _scores(judge)
    human_row = {conv: i for i, conv in enumerate(human.conv_ids)}
    rows = np.array([human_row.get(conv, -1) for conv in judge.conv_ids])
    known = rows >= 0
    h = np.full((len(rows), len(keys), len(ALL_ATTRIBUTES)), np.nan)
    h[known] = human_scores[rows[known]][:, [human.keys.index(key) for key in keys]]
    j = judge_scores[:, [judge.keys.index(key) for key in keys]]
    results = ppi_mean_columns(h.reshape(len(rows), -1), j.reshape(len(rows), -1))
    columns = [(key, attribute) for key in keys for attribute in ALL_ATTRIBUTES]
    return [
        {"judge": judge_name, "model": key, "attribute": attribute, **result.to_json()}
        for (key, attribute), result in zip(columns, results, strict=True)
        if result is not None
    ]
