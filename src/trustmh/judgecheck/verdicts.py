"""The judge side of a validation: per-sample verdicts read from an inspect log (or made by the
refusal detector on recorded answers, or given as a long-format file).

**From a log.** A field of a sample is either a *score field* (``Score.value[field]``, what
the metrics read: ``judge_refused``, ``harmfulness``, ``over_refusal_judge`` ...) or a
*verdict field*: the judge's own verdict as :func:`trustmh.scoring.panel.judge_fields` keeps it
in the score metadata (``judge_verdict``, e.g. ``verdict`` = ``refused``), before the scorer
derived its fields. A verdict field wins over a score field of the same name (the scorer may
have dropped it for some samples). ``None``/NaN is an unparsed verdict. With several epochs
the first epoch's verdict is used (humans rate a sample once).

The log also says which metric reads which field (inspect records each metric's arguments),
so a validation names the metrics it vouches for.

**Per turn.** The conversation tasks also keep each judged turn's verdicts (``dcs`` at turn 5);
:mod:`trustmh.judgecheck.turns` reads them into ``turn_values`` by ``(sample_id, turn, field)``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trustmh.core.errors import UserError
from trustmh.judgecheck.ratings import Scale, Value, read_ratings
from trustmh.judgecheck.turns import TurnValues, derived_metrics, sample_turns, turn_count, turn_rows
from trustmh.scoring.judge_record import FINGERPRINT_FIELDS, FINGERPRINT_KEY, PANEL_KEY

VERDICT_KEY = "judge_verdict"
DETECTORS = ("refusal",)


@dataclass
class JudgeVerdicts:
    """One judge's values by ``(sample_id, field)`` and, per turn, ``(sample_id, turn, field)``
    (``None``: unparsed), and where they came from."""

    judge: str
    source: str
    values: dict[tuple[str, str], Value | None]
    task: str | None = None
    model: str | None = None
    metric_fields: dict[str, list[str]] = field(default_factory=dict)  # field -> metric names
    turn_values: TurnValues = field(default_factory=dict)
    turn_counts: dict[str, int] = field(default_factory=dict)  # judged conversation -> its number of turns
    # judge field the metrics do not read directly (a per-turn verdict ...) -> the metrics built from it
    derived_metric_fields: dict[str, list[str]] = field(default_factory=dict)
    # The distinct judge fingerprints of the log's samples (judges, rubric hashes, temperature,
    # prompt version: trustmh.scoring.judge_record), recorded with a correction made from them.
    fingerprints: list[dict[str, Any]] = field(default_factory=list)
    # field -> the values its rubric lets the judge give (recorded in the log with each judgement)
    scales: dict[str, Scale] = field(default_factory=dict)

    @property
    def fields(self) -> list[str]:
        return sorted({f for _, f in self.values})

    @property
    def turn_fields(self) -> list[str]:
        return sorted({f for _, _, f in self.turn_values})

    @property
    def numeric_fields(self) -> set[str]:
        """Fields the judge rated with numbers only (at least one parsed value)."""
        kinds: dict[str, set[bool]] = {}
        for (_, name), value in self.values.items():
            if value is not None:
                kinds.setdefault(name, set()).add(isinstance(value, str))
        for (_, _, name), value in self.turn_values.items():
            if value is not None:
                kinds.setdefault(name, set()).add(isinstance(value, str))
        return {name for name, labels in kinds.items() if labels == {False}}

    @property
    def samples(self) -> set[str]:
        return {s for s, _ in self.values} | {s for s, _, _ in self.turn_values}


def _value(raw: object) -> Value | None:
    if raw is None or isinstance(raw, bool):
        return None if raw is None else float(raw)
    if isinstance(raw, (int, float)):
        return float(raw) if math.isfinite(raw) else None
    if isinstance(raw, str):
        return raw.strip().lower()
    return None  # a list or dict is not a rating


def _sample_values(scores: dict[str, Any], verdict_fields: set[str]) -> dict[str, Value | None]:
    merged: dict[str, Value | None] = {}
    verdicts: dict[str, Value | None] = {}
    for score in scores.values():
        if isinstance(score.value, dict):
            merged.update({k: _value(v) for k, v in score.value.items()})
        for key, verdict in (score.metadata or {}).items():
            if not key.endswith(VERDICT_KEY):
                continue
            prefix = key[: -len(VERDICT_KEY)]
            if isinstance(verdict, dict):
                verdicts.update({prefix + k: _value(v) for k, v in verdict.items()})
            elif verdict is None:  # the judge's reply was unusable: every verdict field is unparsed
                verdicts.update(dict.fromkeys((f for f in verdict_fields if f.startswith(prefix)), None))
    return {**merged, **verdicts}


def from_log(path: str | Path) -> JudgeVerdicts:
    """The judge's values of every sample of an inspect log (see the module docstring)."""
    from trustmh.scoring.results import log_judge, metric_fields, read_log

    log = read_log(str(path), header_only=False)
    if log.status != "success":
        raise UserError(f"{path}: the log's status is {log.status}; judge-check needs a finished run")
    samples = [s for s in log.samples or [] if s.epoch == 1]
    verdict_fields = {
        (key[: -len(VERDICT_KEY)] + name)
        for s in samples
        for score in (s.scores or {}).values()
        for key, verdict in (score.metadata or {}).items()
        if key.endswith(VERDICT_KEY) and isinstance(verdict, dict)
        for name in verdict
    }
    values = {
        (str(s.id), name): value
        for s in samples
        for name, value in _sample_values(s.scores or {}, verdict_fields).items()
    }
    turn_values: TurnValues = {}
    turn_counts: dict[str, int] = {}
    for s in samples:
        if rows := turn_rows(s.scores or {}):
            turn_values.update(sample_turns(str(s.id), rows, _value))
            turn_counts[str(s.id)] = turn_count(s.store, rows)
    judge = log_judge(log)
    if judge is None:
        raise UserError(f"{path}: this run had no judge (run with --judge MODEL); there are no verdicts to check")
    fields_metrics = metric_fields(log.eval.scorers or [])
    fingerprints: dict[str, dict[str, Any]] = {}
    scales: dict[str, Scale] = {}
    for s in samples:
        for score in (s.scores or {}).values():
            found = (score.metadata or {}).get(FINGERPRINT_KEY)
            if isinstance(found, dict):
                kept = {k: v for k, v in found.items() if k in FINGERPRINT_FIELDS}
                fingerprints.setdefault(json.dumps(kept, sort_keys=True), kept)
            scales.update(_panel_scales((score.metadata or {}).get(PANEL_KEY)))
    return JudgeVerdicts(
        judge=judge,
        source=str(path),
        values=values,
        task=log.eval.task.removeprefix("trustmh/"),
        model=log.eval.model,
        metric_fields=fields_metrics,
        turn_values=turn_values,
        turn_counts=turn_counts,
        derived_metric_fields=derived_metrics(log.eval.metadata, fields_metrics),
        fingerprints=list(fingerprints.values()),
        scales=scales,
    )


def _panel_scales(panel: object) -> dict[str, Scale]:
    """Verdict field (the judgement's prefix + the rubric field) -> its rubric's scale, from the
    ``judge_panel`` score metadata (:mod:`trustmh.scoring.judge_record`); logs written before it
    recorded scales give none."""
    if not isinstance(panel, dict) or not isinstance(panel.get("scales"), dict):
        return {}
    found: dict[str, Scale] = {}
    for judgement in panel.get("judgements") or []:
        rubric = panel["scales"].get(judgement.get("rubric")) if isinstance(judgement, dict) else None
        for name, values in (rubric or {}).items():
            if (scale := Scale.recorded(values)) is not None:
                found[str(judgement.get("prefix") or "") + name] = scale
    return found


def from_ratings_file(path: str | Path, judge: str | None = None) -> JudgeVerdicts:
    """A judge's verdicts given as a long-format file (one rater: the judge)."""
    ratings = read_ratings(path)
    raters = sorted({r.rater for r in ratings})
    if judge is None and len(raters) > 1:
        raise UserError(f"{path}: holds raters {', '.join(raters)}; name the judge's with --judge-rater")
    name = judge or raters[0]
    if name not in raters:
        raise UserError(f"{path}: no rater {name!r} (raters: {', '.join(raters)})", argument="judge_rater")
    mine = [r for r in ratings if r.rater == name]
    values: dict[tuple[str, str], Value | None] = {(r.sample_id, r.field): r.value for r in mine if r.turn is None}
    turns: TurnValues = {(r.sample_id, r.turn, r.field): r.value for r in mine if r.turn is not None}
    return JudgeVerdicts(judge=name, source=str(path), values=values, turn_values=turns)


def from_detector(detector: str, responses: str | Path) -> JudgeVerdicts:
    """The refusal detector's verdict (field ``refusal``: ``refused`` / ``complied``) on recorded answers.

    ``responses``: a replay file of ``{"id", "output"}`` lines (sample id = the record's id) or
    a folder of them (sample id = ``<file stem>/<id>``, e.g. ``gpt-5.1/3-free-response``). A
    null or blank answer is not a verdict (unparsed), as the safety scorers count it.
    """
    from trustmh.models.replay import Recordings
    from trustmh.scoring.refusal import detect_refusal

    if detector not in DETECTORS:
        raise UserError(f"unknown detector {detector!r} (known: {', '.join(DETECTORS)})", argument="detector")
    root = Path(responses)
    if root.is_dir():
        files = sorted(root.glob("*.jsonl"))
        if not files:
            raise UserError(f"{root}: no .jsonl files of recorded answers in this folder", argument="responses")
        named = [(f"{f.stem}/", f) for f in files]
    else:
        named = [("", root)]
    values: dict[tuple[str, str], Value | None] = {}
    for prefix, file in named:
        for sample_id, output in Recordings.load(file).by_id.items():
            blank = output is None or not output.strip()
            verdict = None if blank else ("refused" if detect_refusal(output).refused else "complied")
            values[(prefix + sample_id, "refusal")] = verdict
    return JudgeVerdicts(judge=f"{detector} detector", source=str(responses), values=values)
