"""Between Help and Harm (ellisalicante/LLMs-Mental-Health-Crisis): crisis inputs and protocol.

* ``human-labeled-sampled_dataset_n206_s42-merged_labels.json`` and
  ``gpt-4o-mini-labeled-sampled_dataset_n_2046_nPerD168_seed0-merged-labels.json``: a JSON
  list of ``{"inputs": [user turns...], "label": <class> | null, "all_labels": [...]}``
  (the LLM-labelled file adds ``dataset_id``). ``label`` is the merged (majority) label;
  it is ``null`` when the annotators did not agree, and such items have no gold class.
* ``protocol.csv``: ``label, (1) Harmful / Unacceptable, ..., (5) Fully Appropriate``: for
  each class, what a response at each appropriateness level looks like.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from trustmh.core.errors import DataFormatError, UserError
from trustmh.data.readers import read_csv_rows, read_json
from trustmh.data.registry import resolve_file

DATASET = "llms_mh_crisis"
CRISIS_LABELS: tuple[str, ...] = (
    "suicidal_ideation",
    "self-harm",
    "anxiety_crisis",
    "violent_thoughts",
    "substance_abuse_or_withdrawal",
    "risk_taking_behaviours",
    "no_crisis",
)
LABEL_FILES = {
    "human": "human-labeled-sampled_dataset_n206_s42-merged_labels.json",
    "llm": "gpt-4o-mini-labeled-sampled_dataset_n_2046_nPerD168_seed0-merged-labels.json",
}
PROTOCOL_FILE = "protocol.csv"
PROTOCOL_LEVELS = (
    "(1) Harmful / Unacceptable",
    "(2) Inappropriate",
    "(3) Partially Appropriate",
    "(4) Mostly Appropriate",
    "(5) Fully Appropriate",
)


@dataclass(frozen=True)
class CrisisItem:
    """One conversation opening: the user's turns and its merged class (``None`` if no majority)."""

    id: str
    inputs: tuple[str, ...]
    label: str | None
    all_labels: tuple[str, ...] = ()
    origin: str = ""  # upstream source dataset (``dataset_id``) when known


@dataclass(frozen=True)
class ProtocolEntry:
    """The appropriateness rubric of one class: ``levels[0]`` describes a 1, ``levels[4]`` a 5."""

    label: str
    levels: tuple[str, str, str, str, str]


def _check_label(path: Path, where: str, value: object, allow_none: bool) -> str | None:
    if value is None and allow_none:
        return None
    if not isinstance(value, str) or value not in CRISIS_LABELS:
        raise DataFormatError(path, where, f"expected a label in {', '.join(CRISIS_LABELS)}, found {value!r}")
    return value


def parse_items(path: Path, prefix: str) -> list[CrisisItem]:
    """Validate the upstream list; ids are ``<prefix>-<0-based position>``."""
    data = read_json(path)
    if not isinstance(data, list) or not data:
        raise DataFormatError(path, None, "expected a non-empty JSON list of {inputs, label} objects")
    items: list[CrisisItem] = []
    for index, record in enumerate(data):
        where = f"item {index}"
        if not isinstance(record, dict) or "inputs" not in record or "label" not in record:
            raise DataFormatError(path, where, "expected an object with fields 'inputs' and 'label'")
        inputs = record["inputs"]
        if not isinstance(inputs, list) or not inputs or not all(isinstance(t, str) and t.strip() for t in inputs):
            raise DataFormatError(path, f"{where}, field 'inputs'", "expected a non-empty list of non-empty strings")
        label = _check_label(path, f"{where}, field 'label'", record["label"], allow_none=True)
        raw_all = record.get("all_labels") or []
        if not isinstance(raw_all, list):
            raise DataFormatError(path, f"{where}, field 'all_labels'", "expected a list of labels")
        # Individual annotations may be "" (an annotator gave none, 13 in the LLM file).
        all_labels = tuple(
            "" if v == "" else str(_check_label(path, f"{where}, field 'all_labels'", v, allow_none=False))
            for v in raw_all
        )
        items.append(
            CrisisItem(
                f"{prefix}-{index}",
                tuple(t.strip() for t in inputs),
                label,
                all_labels,
                str(record.get("dataset_id") or ""),
            )
        )
    return items


def load_crisis_items(labels: str = "human", data_dir: str | Path | None = None) -> list[CrisisItem]:
    """Items of the human-labelled (default) or the LLM-labelled set."""
    if labels not in LABEL_FILES:
        raise UserError(f"labels must be one of {', '.join(LABEL_FILES)}, not {labels!r}")
    return parse_items(resolve_file(DATASET, LABEL_FILES[labels], data_dir), labels)


def parse_protocol(path: Path) -> dict[str, ProtocolEntry]:
    rows = read_csv_rows(path, ("label", *PROTOCOL_LEVELS))
    protocol: dict[str, ProtocolEntry] = {}
    for row in rows:
        where = f"line {row['_line']}"
        label = _check_label(path, f"{where}, column 'label'", row["label"].strip(), allow_none=False)
        one, two, three, four, five = (row[name].strip() for name in PROTOCOL_LEVELS)
        levels = (one, two, three, four, five)
        empty = [name for name, text in zip(PROTOCOL_LEVELS, levels, strict=True) if not text]
        if empty:
            raise DataFormatError(
                path, f"{where}, column {empty[0]!r}", "expected a rubric description, found an empty cell"
            )
        protocol[str(label)] = ProtocolEntry(str(label), levels)
    missing = [label for label in CRISIS_LABELS if label not in protocol]
    if missing:
        raise DataFormatError(path, None, f"expected a row for every class, missing {missing[0]!r}")
    return protocol


def load_protocol(data_dir: str | Path | None = None) -> dict[str, ProtocolEntry]:
    return parse_protocol(resolve_file(DATASET, PROTOCOL_FILE, data_dir))


def count_rows(data_dir: str | Path | None) -> int:
    """Items in both label files (the protocol's 7 rubric rows are not counted)."""
    return sum(len(load_crisis_items(labels, data_dir)) for labels in LABEL_FILES)
