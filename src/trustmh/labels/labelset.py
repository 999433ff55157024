"""A labelling set: the items drawn from a judged run, and the record that reads their labels back.

The set file (``<output>.set.json``) stays with whoever runs trustmh; the labelling tool sees
only what a clinician needs. It records the run (log path and sha256, task, judge, the rubric
fingerprints), the fields with their rubric question and scale, how the sample was drawn (seed,
size, strata, allocation) and per item: an opaque id, the run's sample id, its stratum, its
inclusion probability :math:`\\pi_i` and weight :math:`1/\\pi_i`, and the judge's verdicts.

Item ids are ``item-0001``, ... in a seeded random order: neither the id nor the order of the
tasks tells a blind labeller which stratum (e.g. "flagged by the judge") an item came from.
The set id is the sha256 of the set's content: every exported task carries it and the rubric
fingerprints, so labels of another set, or of a set made from another rubric, are refused.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from trustmh.core.errors import DataFormatError, UserError
from trustmh.data.readers import read_json
from trustmh.judgecheck.fields import label_of
from trustmh.judgecheck.ratings import Value
from trustmh.labels.source import JudgedRun, LabelField, RunItem
from trustmh.stats.sampling import ALLOCATIONS, stratified_sample

FORMAT = "trustmh-labels-set/1"
UNPARSED = "unparsed"


@dataclass
class SetItem:
    item: str
    sample_id: str
    stratum: str
    inclusion_probability: float
    judge: dict[str, Value | None]
    conversation: list[dict[str, str]]
    answer: str

    @property
    def weight(self) -> float:
        return 1.0 / self.inclusion_probability


@dataclass
class LabelSet:
    set_id: str
    run: dict[str, Any]
    sampling: dict[str, Any]
    fields: list[LabelField]
    items: list[SetItem]
    blind: bool
    path: str = ""

    @property
    def rubric_fingerprint(self) -> str:
        """``name:hash`` of each rubric, as every exported task carries it."""
        return ",".join(f"{name}:{digest}" for name, digest in sorted(self.run["rubrics"].items()))

    def field(self, name: str) -> LabelField | None:
        return next((f for f in self.fields if f.name == name), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "set": self.set_id,
            "run": self.run,
            "sampling": self.sampling,
            "blind": self.blind,
            "fields": [f.to_json() for f in self.fields],
            "items": [
                {
                    "item": i.item,
                    "sample_id": i.sample_id,
                    "stratum": i.stratum,
                    "inclusion_probability": i.inclusion_probability,
                    "weight": i.weight,
                    "judge": i.judge,
                }
                for i in self.items
            ],
        }


def stratum_of(item: RunItem, stratify: str | None) -> str:
    if stratify is None:
        return "all"
    value = item.judge.get(stratify)
    return UNPARSED if value is None else label_of(value)


def draw_set(
    run: JudgedRun,
    size: int,
    seed: int,
    stratify: str | None = None,
    allocation: str | dict[str, int] = "equal",
    fields: list[str] | None = None,
    blind: bool = False,
    strata_of_items: tuple[str, list[str]] | None = None,
) -> LabelSet:
    """Draw ``size`` items of ``run`` (stratified by the judge's value of ``stratify``, or by
    ``strata_of_items``: what the strata are, and each run item's stratum)."""
    chosen_fields = run.fields
    if fields:
        unknown = [name for name in fields if name not in {f.name for f in run.fields}]
        if unknown:
            known = ", ".join(f.name for f in run.fields)
            raise UserError(f"field {unknown[0]!r} is not a rubric field of {run.path} (fields: {known})", "field")
        chosen_fields = [f for f in run.fields if f.name in fields]
    if stratify is not None and not any(stratify in item.judge for item in run.items):
        raise UserError(f"{run.path}: no sample has a value of {stratify!r} to stratify by", "stratify")
    if isinstance(allocation, str) and allocation not in ALLOCATIONS:
        raise UserError(f"{allocation!r}: expected one of {', '.join(ALLOCATIONS)}", "allocation")
    if size < 1:
        raise UserError(f"{size}: expected at least 1 item", "sample")
    if strata_of_items is not None:
        stratify, strata = strata_of_items
    else:
        strata = [stratum_of(item, stratify) for item in run.items]
    draw = stratified_sample(strata, size, seed, allocation)
    order = np.random.default_rng(seed).permutation(len(draw.indices))
    width = max(4, len(str(len(draw.indices))))
    names = [f.name for f in chosen_fields]
    items = []
    for rank, position in enumerate(order):
        source = run.items[draw.indices[int(position)]]
        items.append(
            SetItem(
                f"item-{rank + 1:0{width}d}",
                source.sample_id,
                strata[draw.indices[int(position)]],
                draw.inclusion[int(position)],
                {n: source.judge.get(n) for n in names},
                source.conversation,
                source.answer,
            )
        )
    sampling = {
        "seed": seed,
        "size": len(items),
        "population": len(run.items),
        "stratify": stratify,
        "allocation": allocation,
        "strata": {name: {"drawn": n, "size": total} for name, (n, total) in draw.allocation.items()},
    }
    run_record = {"log": run.path, "sha256": run.sha256, "task": run.task, "judge": run.judge, "rubrics": run.rubrics}
    labelset = LabelSet("", run_record, sampling, chosen_fields, items, blind)
    labelset.set_id = _digest(labelset.to_json())
    return labelset


def _digest(payload: dict[str, Any]) -> str:
    text = json.dumps({k: v for k, v in payload.items() if k != "set"}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _field_from(entry: dict[str, Any]) -> LabelField:
    choices = tuple(str(c) for c in entry.get("choices") or ())
    return LabelField(
        str(entry["name"]),
        str(entry["rubric"]),
        str(entry["question"]),
        int(entry.get("low", 1)),
        int(entry.get("high", 5)),
        choices,
    )


def read_set(path: str | Path) -> LabelSet:
    """A set file written by ``trustmh labels export``; anything else is a one-line error."""
    payload = read_json(Path(path))
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        raise DataFormatError(
            path, None, f"expected the .set.json file `trustmh labels export` wrote (format {FORMAT})"
        )
    try:
        fields = [_field_from(entry) for entry in payload["fields"]]
        items = [
            SetItem(
                str(e["item"]),
                str(e["sample_id"]),
                str(e["stratum"]),
                float(e["inclusion_probability"]),
                dict(e["judge"]),
                [],
                "",
            )
            for e in payload["items"]
        ]
        labelset = LabelSet(
            str(payload["set"]),
            dict(payload["run"]),
            dict(payload["sampling"]),
            fields,
            items,
            bool(payload["blind"]),
            str(path),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise DataFormatError(
            path, None, f"a set file with fields and items ({type(error).__name__}: {error})"
        ) from None
    if labelset.set_id != _digest(payload):
        raise DataFormatError(
            path, "set", "the file was edited after export (its content no longer matches its set id)"
        )
    if any(not 0 < i.inclusion_probability <= 1 for i in items):
        raise DataFormatError(path, "items", "an inclusion probability outside (0, 1]")
    return labelset
