"""A killed ``trustmh generate`` resumes from the cache without repeating finished calls."""

from __future__ import annotations

import csv
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.doubles.openai_double import OpenAIDouble

SRC = Path(__file__).resolve().parents[2] / "src"
CONVERSATIONS = 300
CONNECTIONS = 4


def write_conversations(path: Path) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["context", "response"])
        for i in range(CONVERSATIONS):
            writer.writerow([f"synthetic worry number {i}", f"synthetic reply {i}"])


def start_generate(conversations: Path, out: Path, cache: Path, base_url: str, key: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(SRC), "OPENAI_API_KEY": key}
    command = [
        sys.executable,
        "-m",
        "trustmh.cli.bulk",
        "generate",
        "--conversations",
        str(conversations),
        "--model",
        "openai/m",
        "--prompt-template",
        "{user_concern}",  # the bare context, so the echoed replies name their conversation
        "-o",
        str(out),
        "--cache",
        str(cache),
        "--base-url",
        base_url,
        "--max-connections",
        str(CONNECTIONS),
        "--no-progress",
    ]
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def cached_rows(cache: Path) -> int:
    with sqlite3.connect(cache) as db:
        return int(db.execute("SELECT COUNT(*) FROM completions").fetchone()[0])


@pytest.mark.slow
def test_sigkilled_run_resumes_without_repeating_finished_calls(tmp_path: Path, fake_key: str) -> None:
    conversations, out, cache = tmp_path / "in.csv", tmp_path / "out.csv", tmp_path / "cache.sqlite"
    write_conversations(conversations)
    with OpenAIDouble(latency=0.05) as server:
        first = start_generate(conversations, out, cache, server.base_url, fake_key)
        deadline = time.monotonic() + 60
        while sum(server.request_counts.values()) < CONVERSATIONS // 3:
            assert first.poll() is None and time.monotonic() < deadline, "the first run ended before the kill"
            time.sleep(0.02)
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        assert not out.exists()  # nothing half-written
        finished = cached_rows(cache)
        before = server.request_counts
        assert 0 < finished < CONVERSATIONS

        second = start_generate(conversations, out, cache, server.base_url, fake_key)
        _, stderr = second.communicate(timeout=120)
        assert second.returncode == 0, stderr.decode()
        after = server.request_counts

    # The rerun asked exactly for what the cache did not have ...
    assert sum(after.values()) - sum(before.values()) == CONVERSATIONS - finished
    # ... so of the calls the first run sent, only those not finished (in flight at the
    # kill: at most one per connection) were sent again; no finished call was repeated.
    unfinished = len(before) - finished
    assert 0 <= unfinished <= CONNECTIONS
    repeated = [key for key in before if after[key] > before[key]]
    assert len(repeated) == unfinished
    assert set(after.values()) <= {1, 2}
    with out.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == CONVERSATIONS
    assert all(row["m"] == f"I hear you. You said: synthetic worry number {i}" for i, row in enumerate(rows))
