"""The task example of docs/contributing.md works as written: one file, one registry line."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest
from inspect_ai import eval

from tests.conftest import REPO_ROOT
from tests.fakes import script
from trustmh.scoring.results import score_summary
from trustmh.tasking import declare as tasking

DOC = (REPO_ROOT / "docs" / "contributing.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", DOC, flags=re.DOTALL)


@pytest.fixture
def example(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> ModuleType:
    """The doc's task file, imported into throwaway catalogues (the real one is untouched)."""
    monkeypatch.setattr(tasking, "TASKS", {})
    monkeypatch.setattr(tasking, "TASK_FUNCTIONS", {})
    path = tmp_path / "usmle_step1.py"
    path.write_text(BLOCKS[0], encoding="utf-8")
    spec = importlib.util.spec_from_file_location("contributing_example", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "contributing_example", module)
    spec.loader.exec_module(module)
    return module


def _accuracy(task, answer_of, tmp_path: Path) -> dict:
    golds = {str(sample.input): sample.target for sample in task.dataset}
    model = script(f"step1-{len(golds)}-{id(answer_of)}", [lambda prompt: f"Answer: {answer_of(golds[prompt])}"])
    (log,) = eval(task, model=model, log_dir=str(tmp_path / "logs"), display="none")
    assert log.status == "success", log.error
    return score_summary(log)["metrics"]


def test_the_registry_line_imports_the_task_function() -> None:
    assert BLOCKS[1].strip() == "from trustmh.pillars.reliability.usmle_step1 import reliability_usmle_step1"


def test_example_task_is_catalogued_and_scores_on_starter_items(example: ModuleType, tmp_path: Path) -> None:
    info = tasking.TASKS["reliability_usmle_step1"]
    assert (info.pillar, info.datasets, info.metrics) == ("reliability", ("psyeval",), ("accuracy",))
    task = example.reliability_usmle_step1()
    assert task.metadata["trustmh_source"] == "starter" and task.config.max_tokens == 64
    assert 0 < len(task.dataset) < 8  # the starter file has Step 1 and Step 2 questions
    right = _accuracy(task, lambda gold: gold, tmp_path / "right")
    wrong = _accuracy(task, lambda gold: "B" if gold == "A" else "A", tmp_path / "wrong")
    assert (right["accuracy"], right["accuracy_n"]) == (1.0, len(task.dataset))
    assert wrong["accuracy"] == 0.0


def test_example_task_reads_the_benchmark_file(example: ModuleType, shared_data: Path) -> None:
    task = example.reliability_usmle_step1(data_dir=str(shared_data))
    assert task.metadata["trustmh_datasets"] == ["psyeval"] and task.config.max_tokens == 256
    assert all(sample.metadata["step"] == "step1" for sample in task.dataset)
    assert 0 < len(task.dataset) < 727
