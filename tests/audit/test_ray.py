"""``detect_batch`` as a Ray Data ``map_batches`` function on a local Ray cluster: the same rows as
the single-process pass.

The cluster runs in a child process: ``ray.init`` leaves threads and handlers behind in the
process that called it, which then hung a later inspect eval in the same pytest process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pytest

from tests.audit.warehouse_helpers import COLUMNS, write_hive_export
from trustmh.audit.batch import detect_batch
from trustmh.audit.warehouse import conversation_batches

pytest.importorskip("ray", reason="ray is not installed (pip install 'trustmh[ray]')")
REPO = Path(__file__).resolve().parents[2]
ON_RAY = """
import json, sys
import pyarrow.parquet as pq
import ray
from trustmh.audit.batch import detect_batch
table = pq.read_table(sys.argv[1])
ray.init(num_cpus=1, include_dashboard=False, configure_logging=False, log_to_driver=False)
try:
    dataset = ray.data.from_arrow(table).repartition(4)  # several batches, each of whole conversations
    rows = dataset.map_batches(detect_batch, batch_format="pyarrow", batch_size=7).take_all()
finally:
    ray.shutdown()
print(json.dumps(sorted(rows, key=lambda r: r["conversation_id"])))
"""


@pytest.mark.slow
def test_ray_map_batches_gives_the_single_process_rows(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    export = write_hive_export(tmp_path / "export", copies=3)
    table = pa.Table.from_batches(list(conversation_batches(export, COLUMNS)))
    pq.write_table(table, tmp_path / "conversations.parquet")
    expected = sorted(detect_batch(table).to_pylist(), key=lambda r: r["conversation_id"])
    env = {**os.environ, "PYTHONPATH": str(REPO / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    result = subprocess.run(
        [sys.executable, "-c", ON_RAY, str(tmp_path / "conversations.parquet")],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert json.loads(result.stdout.strip().splitlines()[-1]) == json.loads(json.dumps(expected))
