"""``remove_superseded_logs`` removes a killed run's "started" log only when it is safe."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from inspect_ai import eval
from inspect_ai.log import list_eval_logs, read_eval_log, write_eval_log

import trustmh._registry  # noqa: F401  (registers the trustmh providers and tasks)
from trustmh.pillars.privacy.dataset import psyleak_dataset
from trustmh.run.logs import remove_superseded_logs
from trustmh.run.runner import build_tasks


def _finished_log(tmp_path: Path):
    responses = tmp_path / "r.jsonl"
    responses.write_text(
        "".join(json.dumps({"id": s.id, "output": "No."}) + "\n" for s in psyleak_dataset("starter", None))
    )
    (task,) = build_tasks(["privacy_psyleak"], "starter", None)
    (log,) = eval(
        task,
        model="trustmh/replay",
        model_args={"responses": str(responses)},
        log_dir=str(tmp_path / "logs"),
        display="none",
        limit=6,
    )
    assert log.status == "success"
    return log


def _started_copy(log, path: Path, keep: int, extra_id: str | None = None) -> Path:
    started = read_eval_log(log.location)
    started.status = "started"
    started.results = None
    started.samples = (started.samples or [])[:keep]
    if extra_id is not None and started.samples:
        stray = started.samples[0].model_copy(update={"id": extra_id})
        started.samples.append(stray)
    write_eval_log(started, str(path))
    old = time.time() - 3600
    os.utime(path, (old, old))
    return path


def test_removes_a_dead_runs_started_log(tmp_path: Path) -> None:
    log = _finished_log(tmp_path)
    stale = _started_copy(log, tmp_path / "logs" / "2000-01-01T00-00-00_old.eval", keep=3)
    removed = remove_superseded_logs(tmp_path / "logs", [log], started_at=time.time() - 60)
    assert removed == [str(stale)] and not stale.exists()
    assert [info.name.removeprefix("file://") for info in list_eval_logs(str(tmp_path / "logs"))] == [log.location]


def test_keeps_a_log_written_after_this_run_started(tmp_path: Path) -> None:
    log = _finished_log(tmp_path)
    live = _started_copy(log, tmp_path / "logs" / "2000-01-01T00-00-00_live.eval", keep=3)
    os.utime(live, None)  # written just now: maybe another process still running
    assert remove_superseded_logs(tmp_path / "logs", [log], started_at=time.time() - 60) == []
    assert live.exists()


def test_keeps_a_log_with_samples_the_new_log_lacks(tmp_path: Path) -> None:
    log = _finished_log(tmp_path)
    other = _started_copy(log, tmp_path / "logs" / "2000-01-01T00-00-00_other.eval", keep=2, extra_id="9-control")
    assert remove_superseded_logs(tmp_path / "logs", [log], started_at=time.time() - 60) == []
    assert other.exists()


def test_keeps_everything_when_the_run_did_not_succeed(tmp_path: Path) -> None:
    log = _finished_log(tmp_path)
    stale = _started_copy(log, tmp_path / "logs" / "2000-01-01T00-00-00_old.eval", keep=3)
    failed = log.model_copy(update={"status": "error"})
    assert remove_superseded_logs(tmp_path / "logs", [failed], started_at=time.time() - 60) == []
    assert stale.exists()
