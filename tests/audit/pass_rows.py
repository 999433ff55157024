"""Seeded detector-pass output at any size, written straight as Parquet parts (no detector runs):
for measuring what reads the rows back (the report's section, ``--profile``), not the detectors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from trustmh.audit.detect_pass import CONVERSATIONS_DIR, MANIFEST
from trustmh.audit.schema import CHECKS, DETECTIONS, DETECTOR_VERSION, STATUTE_CHECK

LANGUAGES = np.array(["en", "en", "en", "en", "es", "fr", "de", "pt", "zh", "und"])
STATUTE_CHECKS = ("start_notice", "notice_on_request", "crisis_referral_missed", "scope_diagnosis")
STATUSES = np.array(["compliant", "violation", "not_applicable", "not_checkable"])


def _part(rng: np.random.Generator, start: int, rows: int) -> pa.Table:
    language = LANGUAGES[rng.integers(0, len(LANGUAGES), rows)]
    covered = np.isin(language, ["en", "es", "fr", "de", "pt"])
    turns = rng.integers(0, 12, rows).astype(np.int32)
    risk = rng.random(rows) < 0.05
    columns: dict[str, pa.Array] = {
        "conversation_id": pa.array([f"conv-{i:09d}" for i in range(start, start + rows)]),
        "content_hash": pa.array([f"{i:032x}" for i in range(start, start + rows)]),
        "detector_version": pa.array([DETECTOR_VERSION] * rows),
        "language": pa.array(language),
        "language_covered": pa.array(covered),
        "turns": pa.array(turns),
        "risk": pa.array(risk),
    }
    flags = {}
    for check in CHECKS:
        fired = rng.random(rows) < 0.01
        flags[check] = fired
        columns[check] = pa.array(np.where(risk, fired, False) if check == "missed_crisis" else fired)
    for check in CHECKS:
        columns[f"{check}_turns"] = pa.array(flags[check].astype(np.int32) * rng.integers(1, 3, rows).astype(np.int32))
    columns["flagged"] = pa.array(np.any(np.vstack(list(flags.values())), axis=0))
    columns["severity"] = pa.array(np.round(rng.random(rows) * 6 * columns["flagged"].to_numpy(False), 1))
    columns["statutes_version"] = pa.array(["statutes-1"] * rows)
    columns["first_time"] = pa.array(np.full(rows, np.nan), mask=np.ones(rows, dtype=bool), type=pa.float64())
    columns["minor"] = pa.array([None] * rows, type=pa.bool_())
    columns["referral_notifications"] = pa.array(rng.poisson(0.05, rows).astype(np.int32))
    count = len(STATUTE_CHECKS)
    status = STATUSES[rng.choice(4, rows * count, p=[0.8, 0.1, 0.05, 0.05])]
    structs = pa.StructArray.from_arrays(
        [
            pa.array(np.tile(STATUTE_CHECKS, rows)),
            pa.array(status),
            pa.array((status == "violation").astype(np.int32)),
            pa.array(np.isin(status, ["compliant", "violation"]).astype(np.int32)),
            pa.array(np.where(status == "not_checkable", "a message has no time", "")),
        ],
        fields=list(STATUTE_CHECK),
    )
    offsets = pa.array(np.arange(0, rows * count + 1, count, dtype=np.int32))
    columns["statute_checks"] = pa.ListArray.from_arrays(offsets, structs)
    return pa.table(columns, schema=DETECTIONS)


def write_pass(folder: Path, rows: int, seed: int = 0, part_rows: int = 1_000) -> Path:
    """``rows`` conversations as a detector pass's output in ``folder`` (parts of ``part_rows``, as the pass writes)."""
    rng = np.random.default_rng(seed)
    (folder / CONVERSATIONS_DIR).mkdir(parents=True, exist_ok=True)
    (folder / MANIFEST).write_text(json.dumps({"detector_version": DETECTOR_VERSION, "export": "synthetic"}))
    for number, start in enumerate(range(0, rows, part_rows), start=1):
        table = _part(rng, start, min(part_rows, rows - start))
        pq.write_table(table, folder / CONVERSATIONS_DIR / f"part-{number:06d}.parquet", compression="zstd")
    return folder


_READ_CHILD = """
import json, resource, sys, time
from pathlib import Path
from trustmh.audit.pass_report import pass_view
from trustmh.regulatory.evidence import parse_period
from trustmh.regulatory.pass_evidence import read_pass_counts
folder = Path(sys.argv[1])
before = resource.getrusage(resource.RUSAGE_SELF)
started = time.perf_counter()
view = pass_view(folder)
counts = read_pass_counts([folder], parse_period(None))
after = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({
    "seconds": time.perf_counter() - started,
    "cpu": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
    "peak_mb": after.ru_maxrss / 1024,
    "conversations": view["totals"]["conversations"],
    "counted": counts.in_period,
}))
"""


def measure_read(folder: Path) -> dict[str, float]:
    """Wall and CPU seconds and peak RSS (MB) of reading the pass in ``folder`` back for the report
    and ``--profile``, in a fresh process (so the peak is this read's own)."""
    out = subprocess.run([sys.executable, "-c", _READ_CHILD, str(folder)], capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result
