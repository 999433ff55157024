"""``trustmh generate|judge --batch``: the OpenAI Batch API path against the batch double —
partial failures and expiry retried and counted, and a killed run resumed by polling."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from tests.bulk.cli import invoke, read_csv
from tests.bulk.test_cost_cli import conversations
from trustmh.testing.batch_double import BatchDouble

SRC = Path(__file__).resolve().parents[2] / "src"


def recorded_batches(cache: Path) -> int:
    if not cache.exists():
        return 0
    try:
        with sqlite3.connect(cache) as db:
            return int(db.execute("SELECT COUNT(*) FROM batches").fetchone()[0])
    except sqlite3.OperationalError:  # the table is not there yet
        return 0


def batch_args(source: Path, out: Path, tmp_path: Path, base_url: str, size: int) -> list[str]:
    return ["generate", "--conversations", str(source), "--model", "openai/m", "-o", str(out),
            "--base-url", base_url, "--cache", str(tmp_path / "cache.sqlite"), "--no-progress",
            "--batch", str(size), "--batch-poll", "0.1"]  # fmt: skip


def test_partial_failures_and_an_expired_batch_are_resubmitted_and_counted(tmp_path: Path, fake_key: str) -> None:
    source = conversations(tmp_path, 25)
    out = tmp_path / "out.csv"
    with BatchDouble(processing_delay=0.2, failure_rate=0.2, expire={1}, seed=3) as api:
        code, output = invoke(*batch_args(source, out, tmp_path, api.base_url, 10))
        submissions = dict(api.state.submissions)
        created = api.state.batches_created
    assert code == 0, output
    rows = read_csv(out)
    assert len(rows) == 25 and all(row["m"].startswith("I hear you.") for row in rows)
    resubmitted = sum(count - 1 for count in submissions.values())
    assert len(submissions) == 25 and resubmitted >= 5  # the expired batch's second half at least
    assert created >= 4  # 3 first batches, then the retries in later ones
    summary = json.loads((tmp_path / "out.csv.summary.json").read_text())
    assert summary["retries"] == resubmitted and summary["failed_cells"] == []
    assert summary["batches"] == {"submitted": created, "resumed": 0}
    assert set(summary["retry_reasons"]) <= {"batch item failed", "batch expired without a result for this request"}


def test_killed_batch_run_resumes_by_polling_never_resubmitting(tmp_path: Path, fake_key: str) -> None:
    source = conversations(tmp_path, 25)
    out = tmp_path / "out.csv"
    env = {**os.environ, "PYTHONPATH": str(SRC), "OPENAI_API_KEY": fake_key}
    with BatchDouble(processing_delay=4.0) as api:
        args = batch_args(source, out, tmp_path, api.base_url, 10)
        first = subprocess.Popen([sys.executable, "-m", "trustmh.cli.bulk", *args], env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
        deadline = time.monotonic() + 120
        # kill once the run has recorded its 3 batches (the provider accepting a batch and our
        # record of it are two steps; a kill between them is the documented window)
        while recorded_batches(tmp_path / "cache.sqlite") < 3 and time.monotonic() < deadline and first.poll() is None:
            time.sleep(0.05)
        assert api.state.batches_created == 3, first.communicate()[1][-2000:]
        first.send_signal(signal.SIGKILL)
        first.wait()
        assert not out.exists()
        second = subprocess.run([sys.executable, "-m", "trustmh.cli.bulk", *args], env=env,
                                capture_output=True, text=True, timeout=300)  # fmt: skip
        created = api.state.batches_created
        submissions = dict(api.state.submissions)
    assert second.returncode == 0, second.stderr[-2000:]
    assert created == 3  # no batch resubmitted
    assert "batches submitted 0, resumed 3" in " ".join(second.stdout.split())
    assert len(submissions) == 25 and set(submissions.values()) == {1}  # no request sent twice, none lost
    rows = read_csv(out)
    assert len(rows) == 25 and all(row["m"].startswith("I hear you.") for row in rows)


def test_judge_through_batches(tmp_path: Path, tiny_csv: Path, fake_key: str) -> None:
    out = tmp_path / "judge.csv"
    with BatchDouble(processing_delay=0.1) as api:
        code, output = invoke(
            "judge", "--responses", str(tiny_csv), "--judge-model", "openai/j", "-o", str(out),
            "--base-url", api.base_url, "--cache", str(tmp_path / "cache.sqlite"), "--no-progress",
            "--batch", "100", "--batch-poll", "0.1",
        )  # fmt: skip
        submitted = sum(api.state.submissions.values())
    assert code == 0, output
    summary = json.loads((tmp_path / "judge.csv.summary.json").read_text())
    assert summary["verdicts"].get("judged", 0) == submitted > 0
    assert summary["batches"]["submitted"] == 1
