"""Comparing models in one log folder: several -m at once, then one more model added."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

from tests.fakes import write_jsonl
from trustmh.core.errors import UserError
from trustmh.run.config import RunConfig
from trustmh.run.runner import build_tasks, run_tasks

TASK = "ethics_ethicmh"
LIMIT = 6


def _recordings(folder: Path, answer: str) -> Path:
    """One recorded model: a folder with one ``<task>.jsonl`` (starter items)."""
    (task,) = build_tasks([TASK], "starter", None)
    folder.mkdir()
    write_jsonl(folder / f"{TASK}.jsonl", [{"id": s.id, "output": answer} for s in task.dataset])
    return folder


def _models_in(log_dir: Path) -> dict[str, str]:
    logs = [read_eval_log(info.name, header_only=True) for info in list_eval_logs(str(log_dir))]
    return {log.eval.model: log.location for log in logs if log.status == "success"}


def _run(models: list[str], responses: Path, log_dir: Path) -> None:
    run_tasks(
        RunConfig(
            tasks=(TASK,),
            models=tuple(models),
            model_args={"responses": str(responses)},
            limit=LIMIT,
            log_dir=log_dir,
            source="starter",
            display="none",
            write_report=False,
        )
    )


def test_two_models_then_a_third_added_to_the_same_folder(tmp_path: Path) -> None:
    # Per-model folders under one root: DIR/<task>/<label>.jsonl, like ../shared/data/replay_trustmh.
    root = tmp_path / "recorded"
    root.mkdir()
    (root / TASK).mkdir()
    for label, answer in (("a", '{"choice": "A"}'), ("b", '{"choice": "B"}'), ("c", "no idea")):
        (root / TASK / f"{label}.jsonl").write_text(
            (_recordings(tmp_path / label, answer) / f"{TASK}.jsonl").read_text(), encoding="utf-8"
        )
    log_dir = tmp_path / "logs"
    _run(["trustmh/replay/a", "trustmh/replay/b"], root, log_dir)
    first = _models_in(log_dir)
    assert set(first) == {"trustmh/replay/a", "trustmh/replay/b"}
    _run(["trustmh/replay/a", "trustmh/replay/b", "trustmh/replay/c"], root, log_dir)
    second = _models_in(log_dir)
    assert set(second) == {"trustmh/replay/a", "trustmh/replay/b", "trustmh/replay/c"}
    # a and b were complete: resumed, not rerun (the same log files)
    assert {m: second[m] for m in first} == first
    # a single recorded model given as a folder of <task>.jsonl is one -m too
    _run(["trustmh/replay/d"], tmp_path / "a", log_dir)
    assert "trustmh/replay/d" in _models_in(log_dir)


def test_missing_record_is_one_line_naming_task_and_id_before_any_call(tmp_path: Path) -> None:
    folder = _recordings(tmp_path / "rec", "A")
    lines = (folder / f"{TASK}.jsonl").read_text(encoding="utf-8").splitlines()
    (folder / f"{TASK}.jsonl").write_text("\n".join(lines[1:]) + "\n", encoding="utf-8")
    with pytest.raises(UserError) as error:
        _run(["trustmh/replay/x"], folder, tmp_path / "logs")
    message = str(error.value)
    assert "\n" not in message and f"of {TASK}" in message and "no record for sample id 's0'" in message
    assert not (tmp_path / "logs").exists() or not list_eval_logs(str(tmp_path / "logs"))
