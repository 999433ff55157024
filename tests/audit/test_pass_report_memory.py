"""Reading a detector pass back for the report and ``--profile`` holds a part at a time: the peak
memory at 200,000 rows is that at 20,000 (``benchmarks/audit_report_bench.py`` prints the figures)."""

from __future__ import annotations

from pathlib import Path

import pyarrow.dataset as ds
import pytest

from tests.audit.pass_rows import measure_read, write_pass


@pytest.mark.slow
def test_peak_memory_does_not_grow_with_the_rows(tmp_path: Path) -> None:
    small = measure_read(write_pass(tmp_path / "small", 20_000, seed=1))
    large = measure_read(write_pass(tmp_path / "large", 200_000, seed=1))
    assert small["conversations"] == small["counted"] == 20_000
    assert large["conversations"] == large["counted"] == 200_000
    whole = ds.dataset(tmp_path / "large" / "conversations", format="parquet").to_table().nbytes / 2**20
    # a reader holding every row would grow by at least the rows' own size (about 64 MB here)
    assert whole > 40
    assert large["peak_mb"] - small["peak_mb"] < whole / 4
