"""Row count of the TrustMH-Bench release folder (several datasets in one folder)."""

from __future__ import annotations

import importlib
from pathlib import Path

# (module, function) per file family; each returns the records of that file. Loaders are
# imported lazily so counting one dataset does not import every loader.
PARTS = (
    ("trustmh.data.loaders.psyleak", "load_psyleak"),
    ("trustmh.data.loaders.psyharm", "load_psyharm"),
    ("trustmh.data.loaders.psyharm", "load_jailbreakmh"),
    ("trustmh.data.loaders.esconv", "load_esconv_fair"),
)


def count_rows(data_dir: str | Path | None) -> int:
    total = 0
    for module_name, function_name in PARTS:
        total += len(getattr(importlib.import_module(module_name), function_name)(data_dir))
    return total
