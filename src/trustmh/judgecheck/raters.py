"""Agreement among the human raters themselves, per field: the ceiling any judge can reach.

For a field rated by two raters or more, over the items at least two of them rated (``n``):

* Krippendorff's alpha (interval for a scale, nominal for labels; :mod:`trustmh.stats.krippendorff`);
* Fleiss' kappa (generalised to missing ratings) and Gwet's AC1 — AC2 with quadratic weights
  on a scale — (:mod:`trustmh.stats.chance_agreement`): AC1 is reported beside kappa because
  kappa collapses when one category is rare (a missed crisis) even where raters agree;
* per pair of raters: Cohen's weighted kappa (quadratic weights on a scale, unweighted on
  labels) over the items both rated, and their confusion matrix.

95% CIs are percentile bootstrap CIs over items (by conversation for per-turn items, as the
judge's statistics). Items drawn with unequal probabilities (the ratings' ``weight`` column on
every item) count by their weight: each item's sums are multiplied by it, scaled to mean 1, so
the statistics estimate the agreement over the whole run rather than over the over-drawn strata.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np

from trustmh.judgecheck.fields import FieldTable, label_of, sampling_weights
from trustmh.stats.bootstrap import cluster_item_counts, percentile_ci, resample_counts, resampled_sums
from trustmh.stats.chance_agreement import (
    agreement_weights,
    cohen_weighted_from_sums,
    confusion_matrix,
    fleiss_from_sums,
    gwet_from_sums,
    multi_rater_unit_sums,
    pair_unit_sums,
)
from trustmh.stats.krippendorff import (
    interval_alpha_from_sums,
    interval_unit_sums,
    nominal_alpha_from_sums,
    nominal_unit_sums,
)

NAN = float("nan")


def _categories(table: FieldTable) -> tuple[np.ndarray, list[str], list[float]]:
    """The human matrix as codes 0..q-1, each code's label and its value (for the weights)."""
    human = table.human
    if table.kind == "scale":
        values = sorted({float(v) for v in human[np.isfinite(human)]})
        lookup = {v: k for k, v in enumerate(values)}
        codes = np.vectorize(lambda v: lookup.get(float(v), np.nan), otypes=[float])(human) if human.size else human
        return codes, [label_of(v) for v in values], values
    return human, list(table.labels), [float(k) for k in range(len(table.labels))]


def _estimate(unit: np.ndarray, counts: np.ndarray, statistic: Any) -> dict[str, Any]:
    value = float(statistic(unit.sum(axis=0)))
    if counts.shape[0] == 0:
        return {"value": value, "ci": [NAN, NAN]}
    low, high = percentile_ci(np.asarray(statistic(resampled_sums(counts, unit)), dtype=float)[:, None])
    return {"value": value, "ci": [float(low[0]), float(high[0])]}


def rater_agreement(
    table: FieldTable, n_boot: int, seed: int, clusters: list[str] | None = None
) -> dict[str, Any] | None:
    """The human raters' agreement on one field (module docstring); ``None`` with fewer than 2 raters.
    ``clusters``: each item's conversation, to resample per-turn items by conversation."""
    if len(table.raters) < 2:
        return None
    codes, labels, values = _categories(table)
    scale = table.kind == "scale"
    weights = agreement_weights(values, "quadratic" if scale else "identity")
    scaled = sampling_weights(table.weights, np.ones(len(codes), dtype=bool))
    item_weight = np.ones(len(codes)) if scaled is None else scaled
    rated_twice = np.isfinite(codes).sum(axis=1) >= 2
    if n_boot > 0 and len(codes):
        counts = (
            resample_counts(len(codes), n_boot, seed)
            if clusters is None
            else cluster_item_counts(clusters, n_boot, seed)
        )
    else:
        counts = np.zeros((0, len(codes)))

    def weighted(unit: np.ndarray) -> np.ndarray:
        return unit * item_weight[:, None]

    multi = weighted(multi_rater_unit_sums(codes, weights))
    if scale:
        alpha_unit, alpha_of = interval_unit_sums(table.human.T), interval_alpha_from_sums
    else:
        alpha_unit, alpha_of = nominal_unit_sums(codes.T, len(labels)), nominal_alpha_from_sums
    pairs = []
    for a, b in combinations(range(len(table.raters)), 2):
        unit = weighted(pair_unit_sums(codes[:, a], codes[:, b], weights))
        both = int((np.isfinite(codes[:, a]) & np.isfinite(codes[:, b])).sum())
        pairs.append(
            {
                "raters": [table.raters[a], table.raters[b]],
                "n": both,
                "cohen_kappa": _estimate(unit, counts, lambda s: cohen_weighted_from_sums(s, weights)),
                "confusion": confusion_matrix(codes[:, a], codes[:, b], len(labels)).tolist(),
            }
        )
    return {
        "raters": list(table.raters),
        "n": int(rated_twice.sum()),
        "categories": labels,
        "weights": "quadratic" if scale else "identity",
        "sampling_weights": scaled is not None,
        "krippendorff_alpha": _estimate(weighted(alpha_unit), counts, alpha_of),
        "fleiss_kappa": _estimate(multi, counts, lambda s: fleiss_from_sums(s, weights)),
        "gwet_ac": _estimate(multi, counts, lambda s: gwet_from_sums(s, weights)),
        "gwet_name": "AC2" if scale else "AC1",
        "pairs": pairs,
    }
