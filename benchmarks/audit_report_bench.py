"""Reading a detector pass back: ``trustmh report`` 's audit section and ``--profile`` counts over N rows.

Workload (seeded, :mod:`tests.audit.pass_rows`): N conversations of detector-pass output written
straight as Parquet parts of 1,000 rows (as the pass writes them), with the statutory columns; no
detector runs. Measured in a child process per size: wall time, CPU time and peak RSS of
:func:`trustmh.audit.pass_report.pass_view` (totals, rates, languages, the worst 20 de-identified)
plus :func:`trustmh.regulatory.pass_evidence.read_pass_counts`. Memory must not grow with N: the
peak at N is printed beside the peak at N/10, and beside the size of the rows loaded whole in Arrow
(what a reader that loaded everything would hold at least).

    PYTHONPATH=src:. python benchmarks/audit_report_bench.py --rows 200000
    PYTHONPATH=src:. python benchmarks/audit_report_bench.py --rows 1000000   # deployment size
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path


def whole_table_mb(folder: Path) -> float:
    import pyarrow.dataset as ds

    return ds.dataset(folder / "conversations", format="parquet").to_table().nbytes / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    from tests.audit.pass_rows import measure_read, write_pass

    with tempfile.TemporaryDirectory(prefix="trustmh-report-bench-") as tmp:
        results = {}
        for rows in (args.rows // 10, args.rows):
            folder = write_pass(Path(tmp) / str(rows), rows, args.seed)
            results[rows] = measure_read(folder)
            assert results[rows]["conversations"] == results[rows]["counted"] == rows
        whole = whole_table_mb(Path(tmp) / str(args.rows))
    for rows, r in results.items():
        print(
            f"{rows:>10,} rows: {r['seconds']:.1f} s wall, {r['cpu']:.1f} s CPU "
            f"({1e6 * r['cpu'] / rows:.1f} µs/row), peak RSS {r['peak_mb']:.0f} MB"
        )
    small, large = results[args.rows // 10], results[args.rows]
    print(
        f"peak RSS growth from {args.rows // 10:,} to {args.rows:,} rows: {large['peak_mb'] - small['peak_mb']:+.0f} MB "
        f"(the {args.rows:,} rows loaded whole in Arrow: {whole:.0f} MB)"
    )


if __name__ == "__main__":
    main()
