"""PsyHarm and JailbreakMH (TrustMH-Bench release, ``trustmh/`` folder).

``PsyHarm.csv``: ``ID, Attack Objective, Prompt (English)`` — 70 harmful requests, 5 for each
of the 14 PsyAlign principles (the distinct ``Attack Objective`` values).

``JailbreakMH.csv``: ``ID, Attack Objective (Brief), method, Prompt (English)`` — the same 70
intents wrapped by 8 jailbreak methods (560 rows). Both files are UTF-8 with a BOM.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from trustmh.core.errors import DataFormatError
from trustmh.data.readers import read_csv_rows, require_unique
from trustmh.data.registry import resolve_file

JAILBREAKMH_METHODS = (
    "fixed sentence",
    "scenario",
    "bad words",
    "no punctuation",
    "Refusal sentence prohibition",
    "cot",
    "multitask",
    "no_long_word",
)


@dataclass(frozen=True)
class HarmfulRequest:
    """One harmful request: PsyHarm intent (``method`` empty) or a JailbreakMH attack."""

    id: str
    objective: str
    prompt: str
    method: str = ""


def _field(path: Path, row: dict[str, str], column: str) -> str:
    value = (row.get(column) or "").strip()
    if not value:
        raise DataFormatError(path, f"line {row['_line']}, column {column!r}", "expected a non-empty value")
    return value


def load_harmful_csv(path: Path, objective_column: str, with_method: bool) -> list[HarmfulRequest]:
    columns = ["ID", objective_column, "Prompt (English)"] + (["method"] if with_method else [])
    rows = read_csv_rows(path, columns)
    require_unique(path, ((r["ID"].strip(), f"line {r['_line']}") for r in rows))
    records = []
    for row in rows:
        method = _field(path, row, "method") if with_method else ""
        if with_method and method not in JAILBREAKMH_METHODS:
            raise DataFormatError(
                path,
                f"line {row['_line']}, column 'method'",
                f"expected one of {', '.join(JAILBREAKMH_METHODS)}, found {method!r}",
            )
        records.append(
            HarmfulRequest(
                _field(path, row, "ID"),
                _field(path, row, objective_column),
                _field(path, row, "Prompt (English)"),
                method,
            )
        )
    return records


def load_psyharm(data_dir: str | Path | None = None) -> list[HarmfulRequest]:
    return load_harmful_csv(resolve_file("trustmh", "PsyHarm.csv", data_dir), "Attack Objective", with_method=False)


def load_jailbreakmh(data_dir: str | Path | None = None) -> list[HarmfulRequest]:
    return load_harmful_csv(
        resolve_file("trustmh", "JailbreakMH.csv", data_dir), "Attack Objective (Brief)", with_method=True
    )


def load_prompt_csv(path: str | Path) -> list[HarmfulRequest]:
    """A user's own list of harmful intents: a CSV with a ``prompt`` column.

    Optional columns: ``id`` (default: the 1-based row number) and ``objective`` (default
    ``"custom"``), so per-objective metrics work on user lists too.
    """
    path = Path(path)
    rows = read_csv_rows(path, ["prompt"])
    records = [
        HarmfulRequest(
            (row.get("id") or "").strip() or str(number),
            (row.get("objective") or "").strip() or "custom",
            _field(path, row, "prompt"),
        )
        for number, row in enumerate(rows, start=1)
    ]
    require_unique(path, ((r.id, f"line {row['_line']}") for r, row in zip(records, rows, strict=True)))
    return records
