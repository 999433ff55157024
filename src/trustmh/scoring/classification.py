"""One classification contract: the score layout of every class-label task and its metrics.

**Score layout** (:func:`label_value`): ``{"correct": 1/0, "gold": "<label>", "pred": "<label>"}``
with ``pred`` and ``correct`` unparsed when the answer names no single class. Labels are
strings, so an epoch reducer that averages numbers cannot pass a mean of two classes off as
a third: inspect's ``mode`` and ``max`` and trustmh's default keep a label, the numeric ones
(``mean``, ``median``, ``pass_at_k``, ``at_least_k``) turn it into a number, and then only the
metrics of ``correct`` are reported (the class metrics are NaN, with a warning).

**Metrics** (:func:`classification_metrics`, computed by :func:`classification_report` with
:mod:`trustmh.stats.classification`), each with n, CI and unparsed (see
:mod:`trustmh.scoring.metrics`):

* ``accuracy`` (Wilson CI) from ``correct``; ``macro_f1`` (bootstrap CI); ``f1[class=<c>]``;
  ``recall[gold=<c>]`` (Wilson CI; its unparsed: the unparsed answers among that class);
  ``confusion[gold=<c>,pred=<c>]`` counts; ``unparsed`` (all answers naming no class);
* with ``high_risk``: ``high_risk_recall`` (a high-risk item predicted as *any* high-risk
  class) and, with ``negative``, ``high_risk_false_negative_rate`` (predicted ``negative``);
* with ``ordinal=True`` (labels in severity order): ``qwk`` (bootstrap CI),
  ``under_triage_rate``, ``over_triage_rate``;
* with ``strict=True``: ``_strict`` variants of accuracy, macro-F1, per-class recall and
  high-risk recall, an unparsed answer counted as a wrong class (a miss of its gold class,
  no F1 of its own).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import numpy as np
from inspect_ai.scorer import Metric, SampleScore, metric

from trustmh.scoring.metrics import estimate_metrics, field_values, summarise
from trustmh.scoring.unparsed import UNPARSED, is_unparsed
from trustmh.stats.classification import (
    confusion_matrix,
    high_risk_false_negative_rate,
    high_risk_recall,
    macro_f1_estimate,
    per_class_recall,
    per_class_scores,
    quadratic_weighted_kappa_estimate,
    triage_rates,
)

logger = logging.getLogger(__name__)

NO_CLASS = "(unparsed)"  # the predicted "class" of an unparsed answer in strict counts


def label_value(gold: str, pred: str | None) -> dict[str, float | str]:
    """The score value of one classified sample; ``pred=None``: the answer names no class."""
    if pred is None:
        return {"correct": UNPARSED, "gold": gold, "pred": UNPARSED}
    return {"correct": float(pred == gold), "gold": gold, "pred": pred}


def _labels_of(scores: Sequence[SampleScore]) -> list[str]:
    """Class names from the sample metadata ``labels`` (the longest list seen)."""
    labels: list[str] = []
    for sample_score in scores:
        found = (sample_score.sample_metadata or {}).get("labels") or []
        if len(found) > len(labels):
            labels = [str(label) for label in found]
    return labels


def gold_pred(scores: Sequence[SampleScore], labels: Sequence[str]) -> tuple[list[str], list[str | None], bool]:
    """``(gold, pred, intact)`` over the samples with a ``gold`` label; pred ``None`` = unparsed.

    ``intact`` is False when some gold or pred is not one of ``labels`` (a numeric epoch
    reducer has turned labels into numbers).
    """
    known = set(labels)
    gold: list[str] = []
    pred: list[str | None] = []
    intact = True
    for sample_score in scores:
        value = sample_score.score.value
        if not isinstance(value, dict) or "gold" not in value:
            continue
        g, p = value["gold"], value.get("pred")
        intact = intact and g in known and (is_unparsed(p) or p in known)
        gold.append(g)
        pred.append(None if is_unparsed(p) else p)
    return gold, pred, intact


def classification_report(
    gold: Sequence[str],
    pred: Sequence[str | None],
    labels: Sequence[str],
    high_risk: Sequence[str] = (),
    negative: str | None = None,
    ordinal: bool = False,
    strict: bool = True,
) -> dict[str, float]:
    """The class metrics of the module docstring (everything but ``accuracy``) for labelled pairs."""
    parsed = [(g, p) for g, p in zip(gold, pred, strict=True) if p is not None]
    g_parsed = [g for g, _ in parsed]
    p_parsed = [p for _, p in parsed]
    missed = [g for g, p in zip(gold, pred, strict=True) if p is None]
    p_strict = [NO_CLASS if p is None else p for p in pred]
    labels = list(labels)
    out: dict[str, float] = {"unparsed": float(len(missed))}

    f1_strict = macro_f1_estimate(gold, p_strict, [*labels, NO_CLASS], scored=len(labels)) if strict else None
    out.update(estimate_metrics("macro_f1", macro_f1_estimate(g_parsed, p_parsed, labels), len(missed), f1_strict))
    matrix = confusion_matrix(g_parsed, p_parsed, labels)
    f1 = per_class_scores(matrix)["f1"]
    recall = per_class_recall(g_parsed, p_parsed, labels)
    recall_strict = per_class_recall(gold, p_strict, labels) if strict else {}
    for k, label in enumerate(labels):
        if not np.isnan(f1[k]):
            out[f"f1[class={label}]"] = float(f1[k])
        out.update(
            estimate_metrics(f"recall[gold={label}]", recall[label], missed.count(label), recall_strict.get(label))
        )
        for j, pred_label in enumerate(labels):
            out[f"confusion[gold={label},pred={pred_label}]"] = float(matrix[k, j])

    if high_risk:
        risky_missed = sum(g in high_risk for g in missed)
        hr_strict = high_risk_recall(gold, p_strict, high_risk) if strict else None
        out.update(
            estimate_metrics(
                "high_risk_recall", high_risk_recall(g_parsed, p_parsed, high_risk), risky_missed, hr_strict
            )
        )
        if negative is not None:
            fnr = high_risk_false_negative_rate(g_parsed, p_parsed, high_risk, negative)
            out.update(estimate_metrics("high_risk_false_negative_rate", fnr, risky_missed))
    if ordinal:
        level = {label: i for i, label in enumerate(labels)}
        g_levels = [level[g] for g in g_parsed]
        p_levels = [level[p] for p in p_parsed]
        out.update(
            estimate_metrics("qwk", quadratic_weighted_kappa_estimate(g_levels, p_levels, len(labels)), len(missed))
        )
        under, over = triage_rates(g_levels, p_levels)
        out.update(estimate_metrics("under_triage_rate", under, len(missed)))
        out.update(estimate_metrics("over_triage_rate", over, len(missed)))
    return out


@metric(name="trustmh/classification")
def classification_metrics(
    labels: list[str] | None = None,
    high_risk: list[str] | None = None,
    negative: str | None = None,
    ordinal: bool = False,
    strict: bool = True,
) -> Metric:
    """Accuracy and the class metrics of the module docstring; ``labels`` default to the
    sample metadata ``labels``."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        values, unparsed = field_values(scores, "correct")
        out = summarise("accuracy", values, unparsed, unparsed_as=0.0 if strict else None)
        classes = labels or _labels_of(scores)
        gold, pred, intact = gold_pred(scores, classes)
        if not intact:
            logger.warning(
                "class metrics not scored: the epochs reducer turned class labels into numbers; "
                "use trustmh's default reducer (trustmh_mean), mode or max"
            )
            gold, pred = [], []
        out.update(classification_report(gold, pred, classes, high_risk or (), negative, ordinal, strict))
        out["unparsed"] = float(unparsed)
        return out

    return compute
