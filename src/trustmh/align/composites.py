"""MentalAlign's composite scores (CSS, ARS) beside the seven attributes of a rating table."""

from __future__ import annotations

import numpy as np

from trustmh.data.loaders.mentalalign import RatingTable
from trustmh.mentalalign.schema import ATTRIBUTES, COMPOSITES


def with_composites(table: RatingTable) -> tuple[np.ndarray, np.ndarray]:
    """Scores and status extended by the CSS and ARS columns (worst component status)."""
    scores, status = [table.scores], [table.status]
    for parts in COMPOSITES.values():
        idx = [ATTRIBUTES.index(p) for p in parts]
        scores.append(table.scores[..., idx].mean(axis=-1, keepdims=True))
        status.append(table.status[..., idx].max(axis=-1, keepdims=True))
    return np.concatenate(scores, axis=-1), np.concatenate(status, axis=-1)
