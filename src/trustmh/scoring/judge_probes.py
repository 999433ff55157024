"""Probe metrics beside every judged metric: panel agreement, undecided items, verbosity, stability.

:func:`judge_probes` is attached to every trustmh scorer by
:func:`~trustmh.scoring.unparsed.trustmh_scorer`; it reads the per-sample panel record
(``judge_panel`` in the score metadata, :mod:`trustmh.scoring.judge_record`) and reports nothing
for a scorer that judged nothing. Per judged rubric field ``<f>`` (prefixed like its score
field, e.g. ``human_validation``):

* ``<f>_judge_alpha`` (with ``_ci_low``, ``_ci_high``, ``_n`` = items rated by ≥ 2 judges), only with
  ≥ 2 judges: Krippendorff's α between the judges, interval for scales, nominal for votes,
  bootstrap CI over items (:func:`trustmh.stats.krippendorff.alpha_estimate`);
* ``<f>_undecided`` (count; ``_n`` = panel judgements), votes with ≥ 2 judges: items without a
  strict majority, left without a value (so also inside ``<metric>_unparsed`` of any metric
  built from ``<f>``);
* ``<f>_verbosity_rho`` (CI, n), scales: Spearman's ρ between the panel's rating and the answer's
  length in words; a clear positive ρ on answers of like quality says the judge rewards length;
* ``<f>_judge_changed`` (CI, n = item × judge pairs), with ``--judge-repeats``: share of
  judgements whose repeats gave a different verdict (:func:`trustmh.stats.judge_probes.changed_share`).

Epochs: the record of a sample's first epoch is the one kept (the reducer keeps its metadata).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from inspect_ai.scorer import Metric, SampleScore, metric

from trustmh.scoring.judge_record import PANEL_KEY
from trustmh.stats.correlation import spearman_estimate
from trustmh.stats.judge_probes import changed_share, panel_mean
from trustmh.stats.krippendorff import alpha_estimate


@dataclass
class FieldJudgements:
    """Every judgement of one rubric field over the samples of a scorer."""

    kind: str  # "scale" or "vote"
    ratings: list[list[Any]] = field(default_factory=list)  # per item, per judge (None = unparsed)
    words: list[int] = field(default_factory=list)
    undecided: int = 0
    first: list[Any] = field(default_factory=list)  # per (item, judge): first verdict
    again: list[list[Any]] = field(default_factory=list)  # per (item, judge): its repeats

    @property
    def judges(self) -> int:
        return max((len(r) for r in self.ratings), default=0)


def _value(verdict: dict[str, Any] | None, name: str) -> Any:
    return None if verdict is None else verdict.get(name)


def gather_judgements(scores: Iterable[SampleScore]) -> dict[str, FieldJudgements]:
    """``{prefixed field: FieldJudgements}`` from the panel records of ``scores``."""
    found: dict[str, FieldJudgements] = {}
    for sample_score in scores:
        panel = (sample_score.score.metadata or {}).get(PANEL_KEY)
        if not isinstance(panel, dict):
            continue
        kinds = panel.get("fields") or {}
        for entry in panel.get("judgements") or []:
            for name, kind in (kinds.get(entry["rubric"]) or {}).items():
                judged = found.setdefault(f"{entry.get('prefix', '')}{name}", FieldJudgements(kind))
                judged.ratings.append([_value(v, name) for v in entry["verdicts"]])
                judged.words.append(int(entry.get("words", 0)))
                judged.undecided += name in (entry.get("undecided") or [])
                for verdict, repeats in zip(entry["verdicts"], entry.get("repeats") or [], strict=False):
                    judged.first.append(_value(verdict, name))
                    judged.again.append([_value(r, name) for r in repeats])
    return found


def _codes(ratings: list[list[Any]], kind: str) -> np.ndarray:
    """``(judges, items)`` matrix for alpha: numbers for scales, category codes for votes; NaN = unparsed."""
    width = max(len(r) for r in ratings)
    if kind == "scale":
        return np.array(
            [[np.nan if v is None else float(v) for v in r] + [np.nan] * (width - len(r)) for r in ratings]
        ).T
    keys = sorted({str(v).casefold().strip() for r in ratings for v in r if v is not None})
    code = {k: float(i) for i, k in enumerate(keys)}
    rows = [[np.nan if v is None else code[str(v).casefold().strip()] for v in r] for r in ratings]
    return np.array([r + [np.nan] * (width - len(r)) for r in rows]).T


def field_probes(name: str, judged: FieldJudgements) -> dict[str, float]:
    """The probe metrics of one field (see the module docstring)."""
    out: dict[str, float] = {}
    if judged.judges >= 2:
        level = "interval" if judged.kind == "scale" else "nominal"
        out.update(alpha_estimate(_codes(judged.ratings, judged.kind), level).as_dict(f"{name}_judge_alpha"))
        if judged.kind == "vote":
            out[f"{name}_undecided"] = float(judged.undecided)
            out[f"{name}_undecided_n"] = float(len(judged.ratings))
    if judged.kind == "scale":
        panel = [panel_mean(r) for r in judged.ratings]
        rating = [np.nan if v is None else v for v in panel]
        out.update(spearman_estimate(rating, [float(w) for w in judged.words]).as_dict(f"{name}_verbosity_rho"))
    if judged.first:
        out.update(changed_share(judged.first, judged.again).as_dict(f"{name}_judge_changed"))
    return out


@metric(name="trustmh/judge_probes")
def judge_probes() -> Metric:
    """Panel agreement, undecided counts, verbosity and stability of every judged field; nothing when unjudged."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        out: dict[str, float] = {}
        for name, judged in sorted(gather_judgements(scores).items()):
            out.update(field_probes(name, judged))
        return out

    return compute
