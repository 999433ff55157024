"""What ``trustmh align`` found, as types: rows per judge, attribute and level, the judges'
item-level pairs (for figures), and the ``--json`` payload both ways.

:meth:`AlignmentResult.from_json` reads that payload back (the report's ``--align FILE``),
so the report draws the same figures as ``trustmh align --html``
(:mod:`trustmh.align.figures`). Read back, a result has no item-level pairs: figures that
need them (the Bland–Altman scatter) are left out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from trustmh.core.errors import UserError
from trustmh.data.loaders.mentalalign import Coverage
from trustmh.mentalalign.schema import ALL_ATTRIBUTES, COMPOSITES
from trustmh.stats.intervals import DEFAULT_BOOTSTRAP, DEFAULT_SEED

# MentalBench's reliability categories from the width of the ICC(C,1) 95% CI.
GR_MAX_WIDTH = 0.355
MR_MAX_WIDTH = 0.560


def category(ci_width: float) -> str | None:
    """GR (width <= 0.355), MR (<= 0.560) or PR; None when the width is unknown."""
    if not np.isfinite(ci_width):
        return None
    if ci_width <= GR_MAX_WIDTH:
        return "GR"
    return "MR" if ci_width <= MR_MAX_WIDTH else "PR"


@dataclass(frozen=True)
class AlignmentRow:
    """Agreement of one judge with the humans on one attribute at one level."""

    judge: str
    attribute: str
    level: str
    n: int
    n_pairs: int
    unparsed: int
    missing: int
    human_mean: float
    judge_mean: float
    bias: float
    bias_ci: tuple[float, float]
    mse: float
    icc_c1: float
    icc_c1_ci: tuple[float, float]
    icc_a1: float
    icc_a1_ci: tuple[float, float]
    ci_width: float
    category: str | None
    pearson_r: float
    ccc: float
    ba_mean_diff: float
    ba_loa: tuple[float, float]
    excluded: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        out = dict(self.__dict__)
        for name in ("bias_ci", "icc_c1_ci", "icc_a1_ci", "ba_loa", "excluded"):
            out[name] = list(out[name])
        return out


@dataclass(frozen=True)
class JudgeData:
    """Item-level pairs of one judge, kept for figures: ``(conversations, keys, attributes)``."""

    name: str
    path: str
    keys: tuple[str, ...]
    excluded: tuple[str, ...]
    human: np.ndarray | None = None  # None when read back from JSON
    judge: np.ndarray | None = None
    coverage: Coverage | None = None  # what this judge's file shares with the human file


@dataclass
class AlignmentResult:
    """Everything ``trustmh align`` reports; ``to_json()`` is the ``--json`` payload."""

    rows: list[AlignmentRow]
    krippendorff_alpha: dict[str, float]
    n_conversations: int
    keys: tuple[str, ...]
    human_path: str
    levels: tuple[str, ...]
    n_boot: int
    seed: int
    cells: dict[str, dict[str, dict[str, int]]]
    judges: list[JudgeData] = field(default_factory=list)
    # Per judge, response model and attribute: the judge's mean corrected by the human ratings
    # (PPI++, trustmh.align.correction); empty when read back from JSON.
    corrected: list[dict[str, Any]] = field(default_factory=list)

    def select(
        self, level: str | None = None, judge: str | None = None, attribute: str | None = None
    ) -> list[AlignmentRow]:
        return [
            r
            for r in self.rows
            if (level is None or r.level == level)
            and (judge is None or r.judge == judge)
            and (attribute is None or r.attribute == attribute)
        ]

    def attributes(self) -> list[str]:
        """The attributes of the rows: MentalBench's order first, then any other."""
        present = list(dict.fromkeys(r.attribute for r in self.rows))
        return [a for a in ALL_ATTRIBUTES if a in present] + [a for a in present if a not in ALL_ATTRIBUTES]

    @classmethod
    def from_json(cls, payload: object, path: str) -> AlignmentResult:
        """The result ``to_json`` wrote (or a file shaped like it); a bad shape is a one-line UserError.

        Rows need ``judge`` and ``attribute``; a missing or null number is NaN (undefined).
        """
        return _result_from_json(payload, path)

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` payload; undefined values are NaN (``write_json`` turns them into null)."""
        return {
            "rows": [row.to_json() for row in self.rows],
            "krippendorff_alpha": self.krippendorff_alpha,
            "krippendorff_coders": ["human"] + [j.name for j in self.judges],
            "n_conversations": self.n_conversations,
            "keys": list(self.keys),
            "attributes": list(ALL_ATTRIBUTES),
            "composites": {name: list(parts) for name, parts in COMPOSITES.items()},
            "levels": list(self.levels),
            "bootstrap": {
                "replicates": self.n_boot,
                "seed": self.seed,
                "ci": 0.95,
                "model_level": "resample response models",
                "item_level": "resample conversations",
            },
            "categories": {
                "GR": f"ci_width <= {GR_MAX_WIDTH}",
                "MR": f"{GR_MAX_WIDTH} < ci_width <= {MR_MAX_WIDTH}",
                "PR": f"ci_width > {MR_MAX_WIDTH}",
            },
            "human": self.human_path,
            "judges": [
                {
                    "name": j.name,
                    "file": j.path,
                    "keys": list(j.keys),
                    "excluded": list(j.excluded),
                    "coverage": None if j.coverage is None else j.coverage.to_json(),
                }
                for j in self.judges
            ],
            "cells": self.cells,
            "corrected_means": self.corrected,
        }


_PAIRS = ("bias_ci", "icc_c1_ci", "icc_a1_ci", "ba_loa")
_COUNTS = ("n", "n_pairs", "unparsed", "missing")
EXPECTED = 'expected {"rows": [{"judge", "attribute", ...}]} as written by `trustmh align --json`'


def _number(value: object) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return math.nan


def _pair(value: object) -> tuple[float, float]:
    if isinstance(value, (list, tuple)) and len(value) == 2:
        return _number(value[0]), _number(value[1])
    return math.nan, math.nan


def _row_from_json(raw: object, path: str, index: int) -> AlignmentRow:
    if not isinstance(raw, dict) or not all(isinstance(raw.get(k), str) for k in ("judge", "attribute")):
        raise UserError(f"{path}: rows[{index}]: {EXPECTED}")
    values: dict[str, Any] = {}
    for spec in fields(AlignmentRow):
        value = raw.get(spec.name)
        if spec.name in ("judge", "attribute"):
            values[spec.name] = value
        elif spec.name == "level":
            values[spec.name] = str(value) if value is not None else "item"
        elif spec.name == "category":
            values[spec.name] = value if isinstance(value, str) else None
        elif spec.name == "excluded":
            values[spec.name] = tuple(str(v) for v in value) if isinstance(value, list) else ()
        elif spec.name in _PAIRS:
            values[spec.name] = _pair(value)
        elif spec.name in _COUNTS:
            values[spec.name] = _count(value)
        else:
            values[spec.name] = _number(value)
    return AlignmentRow(**values)


def _judges_from_json(payload: dict[str, Any], rows: list[AlignmentRow]) -> list[JudgeData]:
    listed = payload.get("judges")
    if not isinstance(listed, list) or not all(isinstance(j, dict) and isinstance(j.get("name"), str) for j in listed):
        return [JudgeData(name, "", (), (), None, None) for name in dict.fromkeys(r.judge for r in rows)]
    judges = []
    for entry in listed:
        cover = entry.get("coverage")
        judges.append(
            JudgeData(
                entry["name"],
                str(entry.get("file", "")),
                tuple(str(k) for k in entry.get("keys") or ()),
                tuple(str(k) for k in entry.get("excluded") or ()),
                None,
                None,
                _coverage(cover),
            )
        )
    return judges


def _count(value: object) -> int:
    number = _number(value)
    return int(number) if math.isfinite(number) else 0


def _coverage(raw: object) -> Coverage | None:
    if not isinstance(raw, dict) or set(raw) != {f.name for f in fields(Coverage)}:
        return None
    values: dict[str, Any] = {k: tuple(str(x) for x in v) if isinstance(v, list) else _count(v) for k, v in raw.items()}
    return Coverage(**values)


def _result_from_json(payload: object, path: str) -> AlignmentResult:
    if not isinstance(payload, dict) or not isinstance(payload.get("rows"), list):
        raise UserError(f"{path}: {EXPECTED}")
    rows = [_row_from_json(raw, path, i) for i, raw in enumerate(payload["rows"])]
    alpha = payload.get("krippendorff_alpha")
    boot: dict[str, Any] = payload["bootstrap"] if isinstance(payload.get("bootstrap"), dict) else {}
    cells: dict[str, Any] = payload["cells"] if isinstance(payload.get("cells"), dict) else {}
    levels = payload.get("levels")
    n_boot, seed = _number(boot.get("replicates")), _number(boot.get("seed"))
    return AlignmentResult(
        rows=rows,
        krippendorff_alpha={str(k): _number(v) for k, v in alpha.items()} if isinstance(alpha, dict) else {},
        n_conversations=_count(payload.get("n_conversations")),
        keys=tuple(str(k) for k in payload.get("keys") or ()),
        human_path=str(payload.get("human", "")),
        levels=tuple(str(v) for v in levels)
        if isinstance(levels, list)
        else tuple(dict.fromkeys(r.level for r in rows)),
        n_boot=int(n_boot) if math.isfinite(n_boot) else DEFAULT_BOOTSTRAP,
        seed=int(seed) if math.isfinite(seed) else DEFAULT_SEED,
        cells=cells,
        judges=_judges_from_json(payload, rows),
    )
