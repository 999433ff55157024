"""Running a reliability task on a scripted model, for the tests of this folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog

from trustmh.scoring.results import score_summary


def run(task: Task, model: Any, tmp_path: Path, **kwargs: Any) -> dict[str, Any]:
    """The score summary of ``task`` on ``model``, which must finish successfully."""
    logs: list[EvalLog] = inspect_eval(task, model=model, display="none", log_dir=str(tmp_path / "logs"), **kwargs)
    log = logs[0]
    assert log.status == "success", log.error
    return score_summary(log)
