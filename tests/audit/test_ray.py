"""``detect_batch`` as a Ray Data ``map_batches`` function on a local Ray cluster: the same rows as
the single-process pass."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest

from tests.audit.warehouse_helpers import COLUMNS, write_hive_export
from trustmh.audit.batch import detect_batch
from trustmh.audit.warehouse import conversation_batches

ray = pytest.importorskip("ray", reason="ray is not installed (pip install 'trustmh[ray]')")


@pytest.mark.slow
def test_ray_map_batches_gives_the_single_process_rows(tmp_path: Path) -> None:
    export = write_hive_export(tmp_path / "export", copies=3)
    table = pa.Table.from_batches(list(conversation_batches(export, COLUMNS)))
    expected = sorted(detect_batch(table).to_pylist(), key=lambda r: r["conversation_id"])
    ray.init(num_cpus=1, include_dashboard=False, configure_logging=False, log_to_driver=False)
    try:
        dataset = ray.data.from_arrow(table).repartition(4)  # several batches, each whole conversations
        rows = dataset.map_batches(detect_batch, batch_format="pyarrow", batch_size=7).take_all()
    finally:
        ray.shutdown()
    assert sorted(rows, key=lambda r: r["conversation_id"]) == expected
