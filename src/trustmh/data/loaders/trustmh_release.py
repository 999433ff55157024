"""Row count of the TrustMH-Bench release folder (several datasets in one folder)."""

from __future__ import annotations

from pathlib import Path

from trustmh.data.loaders.esconv import load_esconv_fair
from trustmh.data.loaders.psyharm import load_jailbreakmh, load_psyharm
from trustmh.data.loaders.psyleak import load_psyleak

# One loader per file family; each returns the records of that file.
PARTS = (load_psyleak, load_psyharm, load_jailbreakmh, load_esconv_fair)


def count_rows(data_dir: str | Path | None) -> int:
    return sum(len(load(data_dir)) for load in PARTS)
