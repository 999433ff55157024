"""How many rows each dataset holds, counted by its own loader (``trustmh data status``).

A loader is imported only when its dataset is counted, so listing datasets never imports every
loader. The table maps a dataset to the module under :mod:`trustmh.data.loaders` whose
``count_rows(data_dir)`` reads it.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from trustmh.core.errors import UserError

LOADER_OF: dict[str, str] = {
    "confaide": "confaide",
    "trustmh": "trustmh_release",
    "ethicmh": "ethicmh",
    "psyeval": "psyeval",
    "emobench": "emobench",
    "cpsycoune": "cpsycoune",
    "llms_mh_crisis": "llms_mh_crisis",
    "cssrs": "cssrs",
    "elephant": "elephant",
    "trustllm": "trustllm",
    "psychosis_bench": "psychosis_bench",
    "mindeval": "mindeval",
    "mentalalign70k": "mentalalign",
    "pas": "pas",
    "esconv": "esconv",
    "swmh": "swmh",
    "d4": "d4",
}


def can_count(dataset: str) -> bool:
    return dataset in LOADER_OF


def count_rows(dataset: str, data_dir: str | Path | None) -> int:
    """Rows of ``dataset`` as its loader reads them from ``data_dir`` (or the cache)."""
    if dataset not in LOADER_OF:
        raise UserError(f"dataset {dataset!r} has no row counter")
    module = importlib.import_module(f"trustmh.data.loaders.{LOADER_OF[dataset]}")
    rows: int = module.count_rows(data_dir)
    return rows
