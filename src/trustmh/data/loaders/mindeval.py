"""MindEval patient profiles (``profiles.jsonl``): one JSON object per line.

Required: ``member_attributes`` (object: name, age, symptoms, goals, ...) and
``member_narrative`` (the profile's life story, in the second person). Other fields (e.g.
``member_narrative_thinking_trace``) are kept in ``extra``. Ids are ``mindeval-<0-based row>``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trustmh.core.errors import DataFormatError
from trustmh.data.readers import read_jsonl
from trustmh.data.registry import resolve_file

DATASET = "mindeval"
FILE = "profiles.jsonl"


@dataclass(frozen=True)
class PatientProfile:
    id: str
    attributes: dict[str, Any]
    narrative: str
    extra: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)


def parse_profiles(path: Path) -> list[PatientProfile]:
    profiles: list[PatientProfile] = []
    for index, record in enumerate(read_jsonl(path, required=("member_attributes", "member_narrative"))):
        where = f"line {record.pop('_line')}"
        attributes = record.pop("member_attributes")
        if not isinstance(attributes, dict) or not attributes:
            raise DataFormatError(
                path, f"{where}, field 'member_attributes'", "expected an object of profile attributes"
            )
        narrative = record.pop("member_narrative")
        if not isinstance(narrative, str) or not narrative.strip():
            raise DataFormatError(path, f"{where}, field 'member_narrative'", "expected the profile narrative as text")
        profiles.append(PatientProfile(f"mindeval-{index}", attributes, narrative.strip(), record))
    return profiles


def load_mindeval(data_dir: str | Path | None = None) -> list[PatientProfile]:
    return parse_profiles(resolve_file(DATASET, FILE, data_dir))


def count_rows(data_dir: str | Path | None) -> int:
    return len(load_mindeval(data_dir))
