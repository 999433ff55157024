"""``stale_flush_interval``: with a large ``log_buffer``, a finished sample still reaches the log
within the interval (what a killed ``trustmh run`` resumes from), and inspect's own 60 s comes back
after the block."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import anyio
import inspect_ai._eval.task.log as task_log
import pytest
from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import list_eval_logs_async, read_eval_log_sample_summaries_async
from inspect_ai.solver import Generate, Solver, TaskState, solver

from trustmh.core.inspect_compat import stale_flush_interval


async def _logged_ids(log_dir: Path) -> set[str]:
    infos = await list_eval_logs_async(str(log_dir))
    if not infos:
        return set()
    try:
        return {str(s.id) for s in await read_eval_log_sample_summaries_async(infos[0].name)}
    except Exception:  # noqa: BLE001 - the log is not written yet
        return set()


@solver
def late_sample_watches_the_log(log_dir: Path, wait_seconds: float, seen: dict[str, Any]) -> Solver:
    """Sample "early" finishes at once; sample "late" waits until "early" is in the log file."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if state.sample_id == "late":
            deadline = time.monotonic() + wait_seconds
            while time.monotonic() < deadline:
                if "early" in await _logged_ids(log_dir):
                    seen["early"] = True
                    break
                await anyio.sleep(0.05)
        return state

    return solve


def _run(log_dir: Path, wait_seconds: float) -> bool:
    seen: dict[str, Any] = {}
    task = Task(
        dataset=MemoryDataset([Sample(id="early", input="a"), Sample(id="late", input="b")]),
        solver=late_sample_watches_the_log(log_dir, wait_seconds, seen),
    )
    (log,) = inspect_eval(task, model="mockllm/model", log_dir=str(log_dir), log_buffer=100, display="none")
    assert log.status == "success"
    return bool(seen.get("early"))


def test_finished_sample_is_in_the_log_within_the_interval(tmp_path: Path) -> None:
    with stale_flush_interval(0.2):
        assert _run(tmp_path / "short", wait_seconds=30)  # seen after ~0.2 s; 30 s only bounds a failure
    assert task_log._STALE_FLUSH_INTERVAL == 60  # inspect's own value is back


def test_without_it_the_sample_waits_for_the_buffer(tmp_path: Path) -> None:
    """The control: inspect alone keeps the finished sample back (60 s or 100 samples)."""
    assert not _run(tmp_path / "default", wait_seconds=2)


def test_restored_after_an_error() -> None:
    with pytest.raises(RuntimeError), stale_flush_interval(1.5):
        assert task_log._STALE_FLUSH_INTERVAL == 1.5
        raise RuntimeError("boom")
    assert task_log._STALE_FLUSH_INTERVAL == 60
