"""``trustmh judge-check``: does a run's judge agree with human raters?

Inputs: the judge's verdicts (:mod:`trustmh.judgecheck.verdicts`: an inspect log, the refusal
detector on recorded answers, or a long-format file) and human ratings in the long format
``sample_id, field, rater, score`` with an optional ``turn`` (:mod:`trustmh.judgecheck.ratings`;
a rating with a turn is matched to that turn's verdict of a conversation task,
:mod:`trustmh.judgecheck.turns`). Output: per field the
statistics of :mod:`trustmh.judgecheck.analysis`, and the human raters' own agreement
(:mod:`trustmh.judgecheck.raters`); ``to_json()`` is the file that
``trustmh report --judge-validation`` shows beside the judged metrics.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trustmh.core.errors import UserError
from trustmh.data.registry import sha256_of
from trustmh.judgecheck.analysis import FieldAgreement, agreement
from trustmh.judgecheck.correction import corrected_mean
from trustmh.judgecheck.fields import build_table
from trustmh.judgecheck.raters import rater_agreement
from trustmh.judgecheck.ratings import Rating, Value, check_on_judge_scales
from trustmh.judgecheck.turns import check_turn_ratings
from trustmh.judgecheck.verdicts import JudgeVerdicts
from trustmh.stats.intervals import DEFAULT_BOOTSTRAP, DEFAULT_SEED

FORMAT = "trustmh-judge-check/1"


@dataclass
class JudgeCheck:
    verdicts: JudgeVerdicts
    human: str
    fields: list[FieldAgreement]
    n_boot: int
    seed: int
    labels_sha256: str | None = None

    def calibration(self) -> dict[str, Any]:
        """What a correction in this file was calibrated on: the label file (and its sha256), the
        judge, the run it judged and the judge fingerprints of that run (judges, rubric hashes,
        temperature, prompt version). The report refuses to apply it to a run judged otherwise."""
        return {
            "labels": self.human,
            "labels_sha256": self.labels_sha256,
            "judge": self.verdicts.judge,
            "run": self.verdicts.source,
            "judge_fingerprints": self.verdicts.fingerprints,
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "judge": self.verdicts.judge,
            "judge_source": self.verdicts.source,
            "task": self.verdicts.task,
            "model": self.verdicts.model,
            "human": self.human,
            "bootstrap": {
                "replicates": self.n_boot,
                "seed": self.seed,
                "ci": 0.95,
                "unit": "item",
                "per_turn_unit": "conversation",
            },
            "calibration": self.calibration(),
            "fields": [f.to_json() for f in self.fields],
        }


def check(
    human: list[Rating],
    human_path: str,
    verdicts: JudgeVerdicts,
    kinds: Mapping[str, str] | None = None,
    binary: Mapping[str, set[str]] | None = None,
    n_boot: int = DEFAULT_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
) -> JudgeCheck:
    """Agreement per field of the human file; a field or sample the judge never saw is a UserError,
    and so is a human label the judge's field cannot take (off its rubric's scale, or a label on
    a field the judge rates with numbers): it would move the agreement and the corrected mean."""
    if n_boot < 0:
        raise UserError(f"{n_boot} bootstrap replicates: expected 0 or more", argument="n_boot")
    by_field: dict[str, list[Rating]] = {}
    for rating in human:
        by_field.setdefault(rating.field, []).append(rating)
    known = verdicts.fields
    for name in [*(kinds or {}), *(binary or {})]:
        if name not in by_field:
            raise UserError(f"field {name!r} is not in {human_path} (fields: {', '.join(sorted(by_field))})")
    check_on_judge_scales(Path(human_path), human, verdicts.scales, verdicts.numeric_fields)
    samples = verdicts.samples
    results = []
    for name, ratings in by_field.items():
        per_turn = any(r.turn is not None for r in ratings)
        if name not in known and not (per_turn or name in verdicts.turn_fields):
            raise UserError(
                f"{ratings[0].where}: field {name!r} is not among the judge's fields in {verdicts.source} "
                f"({', '.join(known) or 'none'})"
            )
        check_turn_ratings(name, ratings, verdicts.turn_values, verdicts.turn_counts, set(known), verdicts.source)
        if not any(r.sample_id in samples for r in ratings):
            raise UserError(
                f"{ratings[0].where}: none of the samples rated on {name!r} is in {verdicts.source} "
                f"(e.g. {ratings[0].sample_id!r}); sample_id must be the sample id of the run"
            )
        table = build_table(name, ratings, _judge_values(verdicts, name, per_turn), kinds or {}, binary or {})
        derived = verdicts.derived_metric_fields.get(name, [])
        metrics = derived if per_turn else verdicts.metric_fields.get(name) or derived
        unit = "turn" if per_turn else "sample"
        found = agreement(table, metrics, n_boot, seed, unit=unit)
        found.correction = corrected_mean(table, unit)
        clusters = [item[0] for item in table.items] if per_turn else None
        found.clinicians = rater_agreement(table, n_boot, seed, clusters)
        results.append(found)
    return JudgeCheck(verdicts, human_path, results, n_boot, seed, _sha256(human_path))


def _judge_values(verdicts: JudgeVerdicts, name: str, per_turn: bool) -> dict[tuple[str, int | None], Value | None]:
    """The judge's values of one field by item: ``(sample, turn)`` per turn, ``(sample, None)`` per sample."""
    if per_turn:
        return {(s, t): v for (s, t, f), v in verdicts.turn_values.items() if f == name}
    return {(s, None): v for (s, f), v in verdicts.values.items() if f == name}


def _sha256(path: str) -> str | None:
    """The label file's sha256 (recorded with a correction); None for ratings not read from a file."""
    return sha256_of(Path(path)) if Path(path).is_file() else None
