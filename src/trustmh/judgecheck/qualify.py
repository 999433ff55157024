r"""``trustmh judge-check --qualify``: run a candidate judge on a labelled qualification set
(:mod:`trustmh.judgecheck.qualification`) and measure its agreement with the humans, and, given
a previous qualification file, whether it is worse beyond the CI (drift).

The judge is asked through the bulk engine exactly as ``trustmh judge`` asks it (same prompt,
re-asks, cache, caps: :func:`trustmh.bulk.judging.judge_table`). Agreement per field is
judge-check's (:func:`trustmh.judgecheck.check`: ICC(A,1), bias, alpha with bootstrap CIs); an
unusable verdict is counted as unparsed, never scored.

**Drift.** Two qualifications on the same set (same fingerprint) are compared per field on the
items both judges scored: the paired bootstrap (the same resampled items for both) of
:math:`\Delta = \mathrm{ICC}_\text{new} - \mathrm{ICC}_\text{previous}`; the new judge is
*worse beyond the CI* when the 95% CI of :math:`\Delta` lies below 0.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from trustmh.core.errors import DataFormatError, UserError
from trustmh.judgecheck.qualification import RUBRICS, QualificationSet
from trustmh.judgecheck.ratings import Rating, Value
from trustmh.judgecheck.verdicts import JudgeVerdicts
from trustmh.stats.bootstrap import percentile_ci, resample_counts, resampled_sums
from trustmh.stats.intervals import DEFAULT_BOOTSTRAP, DEFAULT_SEED
from trustmh.stats.paired import pair_moments, summarize

if TYPE_CHECKING:
    from trustmh.bulk.backends import ModelSpec
    from trustmh.bulk.session import RunSettings
    from trustmh.bulk.tables import Table

FORMAT = "trustmh-judge-qualification/1"
Scores = dict[str, dict[str, float | None]]  # item id -> field -> the judge's score (None: unparsed)


KEY = "original"  # the items' responses sit in one column, the one trustmh judge calls "original"


def judge_input(qset: QualificationSet) -> Table:
    """The set as the wide table ``trustmh judge`` reads (context, response)."""
    from trustmh.bulk.tables import Table
    from trustmh.mentalalign.schema import CONTEXT_COLUMN, HUMAN_RESPONSE_COLUMN

    rows = [{CONTEXT_COLUMN: item.context, HUMAN_RESPONSE_COLUMN: item.response} for item in qset.items]
    return Table(Path(qset.name), [CONTEXT_COLUMN, HUMAN_RESPONSE_COLUMN], rows, [i.id for i in qset.items])


def ask_judge(qset: QualificationSet, judge: ModelSpec, settings: RunSettings, max_attempts: int) -> Scores:
    """The judge's score of every field of every item (None where its verdict was unusable)."""
    from trustmh.bulk.judging import judge_table
    from trustmh.mentalalign.schema import JUDGE_PREFIX, column

    result = judge_table(judge_input(qset), [KEY], judge, settings, max_attempts, RUBRICS[qset.rubric])
    cell = column(JUDGE_PREFIX, KEY)
    scores: Scores = {}
    for item, row in zip(qset.items, result.rows, strict=True):
        verdict = json.loads(row[cell]) if row[cell] else {}
        scores[item.id] = {name: _score(verdict.get(name)) for name in item.labels}
    return scores


def _score(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def qualify(
    qset: QualificationSet,
    judge: str,
    scores: Scores,
    n_boot: int = DEFAULT_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
) -> dict[str, Any]:
    """The qualification record: agreement per field with CIs, the judge's scores per item, and
    what it was measured on (set name, fingerprint and size, rubric hash)."""
    from trustmh.judgecheck import check
    from trustmh.scoring.judge_record import rubric_hash

    ratings = [
        Rating(item.id, name, "human", value, f"{qset.name}:{item.id}")
        for item in qset.items
        for name, value in item.labels.items()
    ]
    values: dict[tuple[str, str], Value | None] = {
        (item_id, name): value for item_id, fields in scores.items() for name, value in fields.items()
    }
    verdicts = JudgeVerdicts(judge=judge, source=f"qualification set {qset.name}", values=values)
    kinds = dict.fromkeys({r.field for r in ratings}, "scale")
    result = check(ratings, qset.source, verdicts, kinds=kinds, n_boot=n_boot, seed=seed)
    return {
        "format": FORMAT,
        "judge": judge,
        "rubric": qset.rubric,
        "rubric_hash": rubric_hash(RUBRICS[qset.rubric]),
        "set": {"name": qset.name, "fingerprint": qset.fingerprint, "items": len(qset.items), "source": qset.source},
        "bootstrap": {"replicates": n_boot, "seed": seed, "ci": 0.95, "unit": "item"},
        "fields": [_field_json(f.to_json()) for f in result.fields],
        "scores": scores,
    }


def _field_json(entry: dict[str, Any]) -> dict[str, Any]:
    """A field's agreement, without the run-level entries that mean nothing here."""
    return {k: v for k, v in entry.items() if k not in ("correction", "metrics", "not_judged")}


def read_previous(path: Path) -> dict[str, Any]:
    """A previous ``--qualify --json`` file; another shape is a one-line error."""
    from trustmh.data.readers import read_json

    payload = read_json(path)
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        raise DataFormatError(path, None, f"expected `trustmh judge-check --qualify --json` output (format {FORMAT})")
    if not isinstance(payload.get("scores"), dict) or not isinstance(payload.get("set"), dict):
        raise DataFormatError(path, "scores/set", "expected the judge's scores per item and the set it was run on")
    return payload


@dataclass(frozen=True)
class Drift:
    field: str
    previous: float
    current: float
    difference: float
    ci: tuple[float, float]
    n: int

    @property
    def worse(self) -> bool:
        return bool(self.ci[1] < 0)

    def to_json(self) -> dict[str, Any]:
        return {**self.__dict__, "ci": list(self.ci), "worse_beyond_ci": self.worse}


def drift(
    qset: QualificationSet,
    current: Scores,
    previous: Mapping[str, Any],
    previous_path: Path,
    n_boot: int = DEFAULT_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
) -> list[Drift]:
    """Per field, ICC(A,1) of the new judge minus the previous one's, with the paired bootstrap CI."""
    if previous["set"].get("fingerprint") != qset.fingerprint:
        raise UserError(
            f"{previous_path}: qualified on set {previous['set'].get('name')!r} "
            f"({previous['set'].get('items')} items, another fingerprint); drift needs the same set"
        )
    if n_boot < 1:
        raise UserError("drift needs bootstrap replicates (--bootstrap 1 or more)", argument="bootstrap")
    out = []
    for name in sorted({n for item in qset.items for n in item.labels}):
        rows = [
            (
                item.labels[name],
                current.get(item.id, {}).get(name),
                _score(previous["scores"].get(item.id, {}).get(name)),
            )
            for item in qset.items
            if name in item.labels
        ]
        both = np.array([r for r in rows if r[1] is not None and r[2] is not None], dtype=float).reshape(-1, 3)
        if len(both) < 3:
            continue
        new = pair_moments(both[:, 0:1], both[:, 1:2], axis=1)  # (items, 6): human vs the new judge
        old = pair_moments(both[:, 0:1], both[:, 2:3], axis=1)
        counts = resample_counts(len(both), n_boot, seed)  # the same items for both judges: paired
        delta = summarize(resampled_sums(counts, new))["icc_a1"] - summarize(resampled_sums(counts, old))["icc_a1"]
        low, high = percentile_ci(np.asarray(delta)[:, None])
        now, before = summarize(new.sum(axis=0))["icc_a1"], summarize(old.sum(axis=0))["icc_a1"]
        out.append(
            Drift(name, float(before), float(now), float(now - before), (float(low[0]), float(high[0])), len(both))
        )
    return out
