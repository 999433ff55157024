"""``reliability_tasks.py`` against stand-ins of the reliability pillar's API (not on this branch).

The real ``usmle_dataset`` / ``emobench_dataset`` / ``mcq_scorer`` / ``emobench_scorer`` come
with the reliability branch; this checks the robustness side of the wiring only.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from tests.crisis.helpers import metrics_of, run, write_replay
from trustmh import tasking

QUESTION = "Which symptom is typical of a panic attack?\nA. Racing heart\nB. Slow breathing\nAnswer:"


@scorer(metrics=[])
def stand_in_mcq() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        return Score(value={"correct": float(state.output.completion.strip() == target.text)})

    return score


@pytest.fixture
def reliability_tasks(monkeypatch: pytest.MonkeyPatch) -> Iterator[types.ModuleType]:
    seen: dict[str, object] = {}

    def usmle_dataset(source: str, data_dir: str | None) -> MemoryDataset:
        seen["usmle"] = (source, data_dir)
        return MemoryDataset([Sample(id="u1", input=QUESTION, target="A")], name="usmle")

    def emobench_dataset(source: str, data_dir: str | None, language: str = "en") -> MemoryDataset:
        seen["emobench"] = (source, data_dir, language)
        return MemoryDataset([Sample(id="e1", input=QUESTION, target="A")], name="emobench")

    package = types.ModuleType("trustmh.pillars.reliability")
    dataset = types.ModuleType("trustmh.pillars.reliability.dataset")
    scorers = types.ModuleType("trustmh.pillars.reliability.scorers")
    dataset.usmle_dataset, dataset.emobench_dataset = usmle_dataset, emobench_dataset  # type: ignore[attr-defined]
    scorers.mcq_scorer, scorers.emobench_scorer = stand_in_mcq, stand_in_mcq  # type: ignore[attr-defined]
    for module in (package, dataset, scorers):
        monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.delitem(sys.modules, "trustmh.pillars.robustness.reliability_tasks", raising=False)
    module = importlib.import_module("trustmh.pillars.robustness.reliability_tasks")
    module.seen = seen  # type: ignore[attr-defined]
    yield module
    # Leave the task catalogue as other tests expect it (these tasks are not registered yet).
    for name in ("robustness_usmle_mental", "robustness_emobench_eu"):
        tasking.TASKS.pop(name, None)
        tasking.TASK_FUNCTIONS.pop(name, None)


def test_usmle_and_emobench_robustness_tasks(reliability_tasks: types.ModuleType, tmp_path: Path) -> None:
    usmle = reliability_tasks.robustness_usmle_mental(source="starter")
    emobench = reliability_tasks.robustness_emobench_eu(source="starter", kinds="case_flip", intensities="1,2")
    assert reliability_tasks.seen["emobench"] == ("starter", None, "en")
    assert [s.id for s in usmle.dataset] == ["u1@clean", "u1@typos-3"]
    assert len(emobench.dataset) == 3
    log = run(usmle, write_replay(tmp_path / "r.jsonl", {"u1@clean": "A", "u1@typos-3": "A"}), tmp_path)
    metrics = metrics_of(log)
    assert metrics["score[perturbation=clean]"] == 1.0 and metrics["relative_drop[perturbation=typos@3]"] == 0.0
    assert log.eval.metadata["trustmh_pillar"] == "robustness"
