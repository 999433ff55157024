"""``trustmh labels``: clinician labels out to a labelling tool and back in as judge-check ratings.

* :func:`export_set` draws a seeded (optionally stratified) sample of a judged run
  (:mod:`trustmh.labels.labelset`) and writes it for Label Studio (tasks + the labelling
  configuration generated from the rubric, :mod:`trustmh.labels.labelstudio`), Argilla
  (records + dataset settings, :mod:`trustmh.labels.argilla`) or a CSV sheet
  (:mod:`trustmh.labels.sheet`), beside the set file that reads the labels back;
* :func:`import_labels` reads the tools' exports into judge-check's long-format ratings, each
  with its item's sampling weight (:mod:`trustmh.labels.reading` for what is refused);
* :mod:`trustmh.labels.plan`: how many labels a CI width needs.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from trustmh.core.errors import DataFormatError, UserError
from trustmh.core.files import json_text, write_text
from trustmh.data.readers import read_text
from trustmh.data.registry import sha256_of
from trustmh.judgecheck.verdicts import from_log
from trustmh.labels import argilla, labelstudio, sheet
from trustmh.labels.labelset import LabelSet, draw_set, read_set
from trustmh.labels.reading import Imported
from trustmh.labels.source import read_run

FORMATS = ("labelstudio", "argilla", "csv")
AUDIT_TASK = "audit"  # the task of a set drawn from an audit's judged sample (trustmh.audit.rate_label_set)


@dataclass
class Written:
    labelset: LabelSet
    files: list[str]


def companion(output: Path, suffix: str) -> Path:
    """``tasks.json`` -> ``tasks.set.json`` / ``tasks.config.xml`` (beside the output)."""
    return output.with_name(output.stem + suffix)


def export_set(
    log: Path,
    output: Path,
    fmt: str,
    size: int,
    seed: int,
    stratify: str | None = None,
    allocation: str = "equal",
    fields: Sequence[str] = (),
    blind: bool = False,
) -> Written:
    """Draw the set and write the tool's file(s) and the set file; each file appears whole or not at all."""
    check_format(fmt)
    return write_set(
        draw_set(read_run(log), size, seed, stratify, allocation, list(fields) or None, blind), output, fmt
    )


def check_format(fmt: str) -> None:
    if fmt not in FORMATS:
        raise UserError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})", "format")


def write_set(labelset: LabelSet, output: Path, fmt: str) -> Written:
    """The tool's file(s) of a drawn set, and the set file; each file appears whole or not at all."""
    set_path = companion(output, ".set.json")
    labelset.path = str(set_path)
    outputs: list[tuple[Path, str]] = [(set_path, json_text(labelset.to_json()))]
    if fmt == "labelstudio":
        outputs += [
            (output, json_text(labelstudio.tasks(labelset))),
            (companion(output, ".config.xml"), labelstudio.config_xml(labelset)),
        ]
    elif fmt == "argilla":
        outputs += [
            (output, json_text(argilla.records(labelset))),
            (companion(output, ".settings.json"), json_text(argilla.settings(labelset))),
        ]
    else:
        outputs.append((output, sheet.sheet_csv(labelset)))
    for path, text in outputs:
        write_text(text, path)
    return Written(labelset, [str(path) for path, _ in outputs])


def _kind(path: Path) -> str:
    if path.suffix.lower() == ".csv":
        return "csv"
    try:
        payload = json.loads(read_text(path))
    except json.JSONDecodeError as error:
        raise DataFormatError(path, f"line {error.lineno}", f"expected JSON ({error.msg})") from None
    first = payload[0] if isinstance(payload, list) and payload else None
    if isinstance(first, dict) and "annotations" in first:
        return "labelstudio"
    if isinstance(first, dict) and "responses" in first:
        return "argilla"
    raise DataFormatError(
        path, None, "expected a Label Studio JSON export (tasks with annotations) or Argilla records (with responses)"
    )


def import_labels(files: Sequence[Path], set_path: Path, log: Path | None = None) -> Imported:
    """Every label of ``files`` checked against the set (and, with ``log``, against the run's rubrics)."""
    labelset = read_set(set_path)
    if log is not None and labelset.run.get("task") == AUDIT_TASK:
        # an audit sample's set asks its own questions (the rates), not the log's rubrics: the log is checked whole
        if sha256_of(log) != labelset.run.get("sha256"):
            raise UserError(f"{log}: not the judged log the labelling set {set_path} was drawn from (another sha256)")
    elif log is not None:
        fingerprints = from_log(log).fingerprints
        run_rubrics = dict(fingerprints[0].get("rubrics") or {}) if len(fingerprints) == 1 else {}
        if run_rubrics != labelset.run["rubrics"]:
            raise UserError(
                f"{log}: the run's rubric fingerprints {run_rubrics} differ from the labelling set's "
                f"{labelset.run['rubrics']} ({set_path}): the labels were made for another rubric"
            )
    readers = {"labelstudio": labelstudio.read_export, "argilla": argilla.read_export, "csv": sheet.read_sheet}
    imported = Imported()
    for path in files:
        imported.extend(readers[_kind(path)](path, labelset))
    _check_once(imported)
    return imported


def _check_once(imported: Imported) -> None:
    """A rater rates a field of an item once (two annotations by one user are a mistake to resolve)."""
    seen: dict[tuple[str, str, str], str] = {}
    for rating in imported.ratings:
        key = (rating.sample_id, rating.field, rating.rater)
        if key in seen:
            raise UserError(
                f"{rating.where}: rater {rating.rater!r} already rated {rating.field!r} of this item at {seen[key]}"
            )
        seen[key] = rating.where
