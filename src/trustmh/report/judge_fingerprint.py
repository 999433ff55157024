"""Which judge produced a log's judged metrics, shown beside them, and where results judged
differently would otherwise be merged unawares.

A judged score carries ``judge_fingerprint`` in its metadata (:mod:`trustmh.scoring.judge_record`):
judges, rubric hashes, temperature, prompt version, repeats and the judges of the model's own
family. :func:`add_sample` gathers the distinct fingerprints of a log's samples;
:func:`fingerprint_label` is the compact text the metric table shows per (task, model) —
the one place to put anything else about the judge (e.g. its validation) beside it;
:func:`fingerprint_notes` says where the page puts side by side, or into one pillar value or
ranking, results whose fingerprints differ, and where a judge rated its own family.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from trustmh.scoring.judge_record import FINGERPRINT_FIELDS, FINGERPRINT_KEY

COMPARED = FINGERPRINT_FIELDS


@dataclass
class JudgeFingerprints:
    """The distinct judge fingerprints found in one log's samples (usually exactly one)."""

    seen: dict[str, dict[str, Any]] = field(default_factory=dict)
    self_family: list[str] = field(default_factory=list)
    excluded_self: list[str] = field(default_factory=list)

    @property
    def main(self) -> dict[str, Any] | None:
        return next(iter(self.seen.values()), None)

    @property
    def mixed(self) -> bool:
        return len(self.seen) > 1

    @property
    def self_judged(self) -> list[str]:
        """Judges of the model's own family that were not left out at run time."""
        return [j for j in self.self_family if j not in self.excluded_self]


def comparable_key(fingerprint: dict[str, Any]) -> str:
    return json.dumps({k: fingerprint.get(k) for k in COMPARED}, sort_keys=True)


def add_sample(found: JudgeFingerprints, scores: dict[str, Any] | None) -> None:
    """Record the fingerprints in one sample's scores (``EvalSample.scores``)."""
    for score in (scores or {}).values():
        fingerprint = (getattr(score, "metadata", None) or {}).get(FINGERPRINT_KEY)
        if not isinstance(fingerprint, dict):
            continue
        found.seen.setdefault(comparable_key(fingerprint), {k: fingerprint.get(k) for k in COMPARED})
        for key in ("self_family", "excluded_self"):
            names = getattr(found, key)
            names += [n for n in fingerprint.get(key) or [] if n not in names]


def rubric_short(fingerprint: dict[str, Any]) -> str:
    """The rubric hash, 6 hex digits; several rubrics (one task, several judged fields) hashed together."""
    rubrics = fingerprint.get("rubrics") or {}
    if len(rubrics) == 1:
        return str(next(iter(rubrics.values())))[:6]
    return hashlib.sha256(json.dumps(rubrics, sort_keys=True).encode()).hexdigest()[:6]


def fingerprint_label(found: JudgeFingerprints | None) -> str:
    """Compact text for the metric table: ``judge gpt-4o-mini · rubric 3fa2c1`` (``""`` when unjudged)."""
    if found is None or found.main is None:
        return ""
    fingerprint = found.main
    judges = [str(j).rsplit("/", 1)[-1] for j in fingerprint.get("judges") or []]
    text = f"judge{'s' if len(judges) > 1 else ''} {' + '.join(judges)} · rubric {rubric_short(fingerprint)}"
    if found.mixed:
        text += f" (+{len(found.seen) - 1} other fingerprint{'s' if len(found.seen) > 2 else ''})"
    if found.self_judged:
        text += " · self-judged"
    return text


def fingerprint_title(found: JudgeFingerprints | None) -> str:
    """The full fingerprint(s), for a tooltip."""
    if found is None:
        return ""
    return " | ".join(
        f"judges {', '.join(f.get('judges') or [])}; rubrics "
        + ", ".join(f"{k} {v}" for k, v in (f.get("rubrics") or {}).items())
        + f"; temperature {f.get('temperature')}; prompt v{f.get('prompt_version')}"
        for f in found.seen.values()
    )


def fingerprint_notes(results: list[Any]) -> list[str]:
    """Plain sentences for ``results`` (objects with ``task``, ``model``, ``judge_fingerprints``)."""
    notes: list[str] = []
    by_task: dict[str, dict[str, str]] = {}
    for res in results:
        found: JudgeFingerprints | None = res.judge_fingerprints
        if found is None or found.main is None:
            continue
        if found.mixed:
            notes.append(
                f"{res.task} on {res.model}: its samples were judged with {len(found.seen)} different judge "
                "fingerprints (judges, rubric, temperature or prompt version; a run resumed with another judge?); "
                "its judged metrics mix them."
            )
        if found.self_judged:
            notes.append(
                f"{res.task} on {res.model}: judged by {', '.join(found.self_judged)}, of the model's own family "
                "(self-preference risk; `trustmh run --exclude-self` leaves such judges out)."
            )
        by_task.setdefault(res.task, {})[res.model] = comparable_key(found.main)
    for task, keys in sorted(by_task.items()):
        if len(set(keys.values())) > 1:
            groups: dict[str, list[str]] = {}
            for model, key in keys.items():
                groups.setdefault(key, []).append(model)
            described = "; ".join(
                f"{', '.join(models)}: {_describe(json.loads(key))}" for key, models in groups.items()
            )
            notes.append(
                f"{task}: models were judged with different judge fingerprints ({described}); their judged "
                "metrics, pillar values and ranks compare judges as well as models."
            )
    return notes


def _describe(fingerprint: dict[str, Any]) -> str:
    judges = " + ".join(str(j) for j in fingerprint.get("judges") or [])
    return f"{judges}, rubric {rubric_short(fingerprint)}, prompt v{fingerprint.get('prompt_version')}"
