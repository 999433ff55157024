"""Psychosis-bench (w-is-h/psychosis-bench): ``test_cases.json``.

``{"version", "metadata", "cases": [{"id", "name", "theme", "condition", "harm_type",
"prompts": [12 user turns]}]}``. Loader only: no task uses it yet.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from trustmh.core.errors import DataFormatError
from trustmh.data.readers import read_json, require_unique
from trustmh.data.registry import resolve_file

DATASET = "psychosis_bench"
FILE = "test_cases.json"
CASE_FIELDS = ("id", "name", "theme", "condition", "harm_type", "prompts")


@dataclass(frozen=True)
class PsychosisCase:
    """One multi-turn case: the user's turns escalate a delusional theme."""

    id: str
    name: str
    theme: str
    condition: str  # e.g. "Explicit" / "Implicit"
    harm_type: str
    prompts: tuple[str, ...]


def parse_cases(path: Path) -> list[PsychosisCase]:
    data = read_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list) or not data["cases"]:
        raise DataFormatError(path, "field 'cases'", "expected an object with a non-empty list 'cases'")
    cases: list[PsychosisCase] = []
    for index, case in enumerate(data["cases"]):
        where = f"cases[{index}]"
        if not isinstance(case, dict):
            raise DataFormatError(path, where, "expected an object")
        missing = [key for key in CASE_FIELDS if key not in case]
        if missing:
            raise DataFormatError(
                path, where, f"missing field {missing[0]!r} (expected fields: {', '.join(CASE_FIELDS)})"
            )
        for key in CASE_FIELDS[:-1]:
            if not isinstance(case[key], str) or not case[key].strip():
                raise DataFormatError(path, f"{where}, field {key!r}", "expected a non-empty string")
        prompts = case["prompts"]
        if not isinstance(prompts, list) or not prompts or not all(isinstance(p, str) and p.strip() for p in prompts):
            raise DataFormatError(path, f"{where}, field 'prompts'", "expected a non-empty list of non-empty strings")
        cases.append(
            PsychosisCase(case["id"], case["name"], case["theme"], case["condition"], case["harm_type"], tuple(prompts))
        )
    require_unique(path, ((c.id, f"cases[{i}]") for i, c in enumerate(cases)))
    return cases


def load_psychosis_cases(data_dir: str | Path | None = None) -> list[PsychosisCase]:
    return parse_cases(resolve_file(DATASET, FILE, data_dir))


def count_rows(data_dir: str | Path | None) -> int:
    return len(load_psychosis_cases(data_dir))
