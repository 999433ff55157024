"""Agreement of a judge with human raters, field by field.

Per field (see :mod:`trustmh.judgecheck.fields` for the kinds), over the items that humans
rated and the judge gave a parsed verdict for (``n``):

* **scale**: ICC(A,1) (absolute agreement; the headline) and ICC(C,1) of the judge against
  the mean human rating of each item, from :mod:`trustmh.stats.paired`; bias = judge mean -
  human mean; Krippendorff's alpha (interval) over the judge and every human rater.
* **nominal / binary**: Cohen's kappa of judge vs the human with one human rater, Fleiss'
  kappa over the judge and all human raters with several (the headline); Krippendorff's alpha
  (nominal); agreement with the human majority (ties left out). Binary fields add the rate
  bias (judge rate - mean human rate) and, with the human majority as truth and the judge's 1
  as a positive call, precision and recall (Wilson CIs).
* With several human raters, the humans' own agreement (alpha, and Fleiss' kappa for labels)
  is reported beside: a judge cannot be asked to agree with humans better than they agree
  with each other.

95% CIs are percentile bootstrap CIs resampling items (all statistics of one field share
the replicates; Cohen's kappa uses :func:`trustmh.stats.agreement.kappa_estimate`). Per-turn
items (``unit`` turn) are resampled by whole conversations instead
(:func:`trustmh.stats.bootstrap.cluster_item_counts`): the turns of one conversation are not
independent, and resampling them one by one would give too-narrow intervals.

With sampling weights (the ratings' ``weight`` column on every item: a labelling set drawn with
unequal probabilities), each item's sums are multiplied by its weight scaled to mean 1, so the
agreement, alpha, kappa, ICC and bias estimate the whole run's rather than the over-drawn
strata's (``weighted`` in the JSON). The majority agreement, precision / recall and their
confusion counts stay counts of the labelled items.
"""

from __future__ import annotations

import dataclasses
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from trustmh.judgecheck.fields import FieldTable, sampling_weights
from trustmh.stats.agreement import (
    category_counts,
    cohen_from_sums,
    cohen_unit_sums,
    fleiss_from_sums,
    fleiss_unit_sums,
    kappa_estimate,
)
from trustmh.stats.bootstrap import cluster_item_counts, percentile_ci, resample_counts, resampled_sums
from trustmh.stats.intervals import DEFAULT_BOOTSTRAP, DEFAULT_SEED, wilson_interval
from trustmh.stats.krippendorff import (
    interval_alpha_from_sums,
    interval_unit_sums,
    nominal_alpha_from_sums,
    nominal_unit_sums,
)
from trustmh.stats.paired import pair_moments, summarize

NAN = float("nan")
Interval = tuple[float, float]


@dataclass
class FieldAgreement:
    """Everything judge-check reports about one field; NaN = undefined / not applicable."""

    field: str
    kind: str
    n: int
    raters: list[str]
    judge_unparsed: int
    not_judged: int
    agreement: str  # name of the headline statistic: icc_a1, cohen_kappa or fleiss_kappa
    value: float
    ci: Interval
    alpha: float
    alpha_ci: Interval
    bias: float = NAN
    bias_ci: Interval = (NAN, NAN)
    human_mean: float = NAN
    judge_mean: float = NAN
    icc_c1: float = NAN
    icc_c1_ci: Interval = (NAN, NAN)
    majority_agreement: float = NAN
    precision: float = NAN
    precision_ci: Interval = (NAN, NAN)
    recall: float = NAN
    recall_ci: Interval = (NAN, NAN)
    confusion: dict[str, int] = dataclasses.field(default_factory=dict)
    human_alpha: float = NAN
    human_alpha_ci: Interval = (NAN, NAN)
    human_kappa: float = NAN
    human_kappa_ci: Interval = (NAN, NAN)
    labels: list[str] = dataclasses.field(default_factory=list)
    metrics: list[str] = dataclasses.field(default_factory=list)
    unit: str = "sample"  # what an item is: a sample, or one turn of a conversation ("turn")
    # The judge's mean corrected by the labels (trustmh.judgecheck.correction), or why not.
    correction: dict[str, Any] | None = None
    weighted: bool = False  # the statistics weigh each item by its sampling weight (the ratings' weight column)
    # The human raters' agreement among themselves (trustmh.judgecheck.raters); None with one rater.
    clinicians: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        for key, value in out.items():
            if isinstance(value, tuple):
                out[key] = list(value)
        return out


def _ci(reps: np.ndarray) -> Interval:
    lo, hi = percentile_ci(np.asarray(reps, dtype=float)[:, None])
    return float(lo[0]), float(hi[0])


def _point_and_ci(
    unit: np.ndarray, counts: np.ndarray, statistic: Any, weights: np.ndarray | None = None
) -> tuple[float, Interval]:
    if weights is not None:
        unit = unit * weights[:, None]
    point = float(statistic(unit.sum(axis=0)))
    if counts.shape[0] == 0:
        return point, (NAN, NAN)
    return point, _ci(statistic(resampled_sums(counts, unit)))


def _scale_stats(table: FieldTable, counts: np.ndarray, weights: np.ndarray | None) -> dict[str, Any]:
    with np.errstate(invalid="ignore"):
        human_mean = np.nanmean(np.where(np.isfinite(table.human), table.human, np.nan), axis=1)
    unit = pair_moments(human_mean[:, None], table.judge[:, None], axis=1)
    if weights is not None:
        unit = unit * weights[:, None]
    point = summarize(unit.sum(axis=0))
    reps = summarize(resampled_sums(counts, unit)) if counts.shape[0] else None

    def ci(name: str) -> Interval:
        return (NAN, NAN) if reps is None else _ci(reps[name])

    return {
        "icc_a1": (float(point["icc_a1"]), ci("icc_a1")),
        "icc_c1": (float(point["icc_c1"]), ci("icc_c1")),
        "bias": (float(point["bias"]), ci("bias")),
        "human_mean": float(point["human_mean"]),
        "judge_mean": float(point["judge_mean"]),
    }


def _counts(n_items: int, n_boot: int, seed: int, clusters: list[str] | None) -> np.ndarray:
    """Bootstrap draw counts ``(n_boot, n_items)``: by item, or by cluster when ``clusters`` names each item's."""
    if n_boot <= 0:
        return np.zeros((0, n_items))
    return resample_counts(n_items, n_boot, seed) if clusters is None else cluster_item_counts(clusters, n_boot, seed)


def _majority(human: np.ndarray, n_labels: int) -> np.ndarray:
    """The human majority code of each item; NaN for a tie or no rating."""
    counts = category_counts(human, n_labels)
    top = counts.max(axis=1, keepdims=True)
    unique = (counts == top).sum(axis=1) == 1
    return np.where(unique & (top[:, 0] > 0), counts.argmax(axis=1), np.nan)


def _binary_extras(table: FieldTable, gold: np.ndarray) -> dict[str, Any]:
    pred = table.judge
    both = np.isfinite(pred) & np.isfinite(gold)
    tp = int(((pred == 1) & (gold == 1) & both).sum())
    fp = int(((pred == 1) & (gold == 0) & both).sum())
    fn = int(((pred == 0) & (gold == 1) & both).sum())
    tn = int(((pred == 0) & (gold == 0) & both).sum())
    precision = tp / (tp + fp) if tp + fp else NAN
    recall = tp / (tp + fn) if tp + fn else NAN
    return {
        "precision": precision,
        "precision_ci": wilson_interval(tp, tp + fp),
        "recall": recall,
        "recall_ci": wilson_interval(tp, tp + fn),
        "confusion": {"tp": tp, "fp": fp, "fn": fn, "tn": tn},
    }


def agreement(
    table: FieldTable,
    metrics: list[str],
    n_boot: int = DEFAULT_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
    unit: str = "sample",
) -> FieldAgreement:
    """All statistics of one field (see the module docstring); ``unit``: what one item of the table is."""
    used = np.isfinite(table.judge) & np.isfinite(table.human).any(axis=1)
    human, judge = table.human[used], table.judge[used]
    sub = FieldTable(table.field, table.kind, [], table.raters, human, judge, 0, 0, table.labels)
    clusters = [item[0] for item, kept in zip(table.items, used, strict=True) if kept] if unit == "turn" else None
    counts = _counts(int(used.sum()), n_boot, seed, clusters)
    weights = sampling_weights(table.weights, used)
    coders = np.column_stack([judge, human]).T  # (coders, items): the judge, then each human
    several = len(table.raters) >= 2
    result: dict[str, Any] = {}
    if table.kind == "scale":
        scale = _scale_stats(sub, counts, weights)
        headline, (value, ci) = "icc_a1", scale["icc_a1"]
        result.update(
            bias=scale["bias"][0],
            bias_ci=scale["bias"][1],
            human_mean=scale["human_mean"],
            judge_mean=scale["judge_mean"],
            icc_c1=scale["icc_c1"][0],
            icc_c1_ci=scale["icc_c1"][1],
        )
        alpha, alpha_ci = _point_and_ci(interval_unit_sums(coders), counts, interval_alpha_from_sums, weights)
        if several:
            result["human_alpha"], result["human_alpha_ci"] = _point_and_ci(
                interval_unit_sums(human.T), counts, interval_alpha_from_sums, weights
            )
    else:
        k = len(table.labels)
        if several:
            headline = "fleiss_kappa"
            value, ci = _point_and_ci(fleiss_unit_sums(category_counts(coders.T, k)), counts, fleiss_from_sums, weights)
            result["human_kappa"], result["human_kappa_ci"] = _point_and_ci(
                fleiss_unit_sums(category_counts(human, k)), counts, fleiss_from_sums, weights
            )
            result["human_alpha"], result["human_alpha_ci"] = _point_and_ci(
                nominal_unit_sums(human.T, k), counts, nominal_alpha_from_sums, weights
            )
        else:
            headline = "cohen_kappa"
            estimate = kappa_estimate(judge, human[:, 0]) if len(judge) else None
            value = estimate.value if estimate else NAN
            ci = (estimate.ci_low, estimate.ci_high) if estimate and n_boot > 0 else (NAN, NAN)
            if clusters is not None or weights is not None:  # the same replicates (and weights) as the others
                value, ci = _point_and_ci(cohen_unit_sums(judge, human[:, 0], k), counts, cohen_from_sums, weights)
        alpha, alpha_ci = _point_and_ci(nominal_unit_sums(coders, k), counts, nominal_alpha_from_sums, weights)
        gold = _majority(human, k)
        decided = np.isfinite(gold)
        result["majority_agreement"] = float((judge[decided] == gold[decided]).mean()) if decided.any() else NAN
        if table.kind == "binary":
            scale = _scale_stats(sub, counts, weights)
            result.update(
                bias=scale["bias"][0],
                bias_ci=scale["bias"][1],
                human_mean=scale["human_mean"],
                judge_mean=scale["judge_mean"],
            )
            result.update(_binary_extras(sub, gold))
    return FieldAgreement(
        field=table.field,
        kind=table.kind,
        n=int(used.sum()),
        raters=list(table.raters),
        judge_unparsed=table.judge_unparsed,
        not_judged=table.not_judged,
        agreement=headline,
        value=float(value),
        ci=(float(ci[0]), float(ci[1])),
        alpha=alpha,
        alpha_ci=alpha_ci,
        labels=list(table.labels),
        metrics=metrics,
        unit=unit,
        weighted=weights is not None,
        **result,
    )
