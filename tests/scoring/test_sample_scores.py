"""Reading every sample's scores back from a log: the same scores as inspect's sample reader, with
the central directory parsed once per batch instead of once per sample (the step that kept a
10,000-conversation audit busy for over 16 minutes after its log was written)."""

from __future__ import annotations

import math
from typing import Any

import inspect_ai._util.async_zip as async_zip
import pytest
from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import list_eval_logs, read_eval_log, read_eval_log_samples
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver

from trustmh.scoring.sample_scores import log_sample_scores

SAMPLES = 30
EPOCHS = 2


@solver
def no_model() -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        return state  # nothing generated: no model is called

    return solve


@scorer(metrics=[])
def long_metadata() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        number = int(str(state.sample_id).removeprefix("s"))
        # well over the 1 kB that inspect keeps of a score's metadata in the sample summaries
        turns = [{"turn": t, "flag": (number + t) % 3 == 0, "note": "x" * 40} for t in range(1, 40)]
        return Score(value=number % 2, metadata={"turns": turns, "severity": float(number % 5)})

    return score


@pytest.fixture(scope="module")
def log_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    log_dir = tmp_path_factory.mktemp("sample-scores")
    task = Task(
        dataset=MemoryDataset([Sample(id=f"s{i}", input=f"item {i}") for i in range(SAMPLES)]),
        solver=no_model(),
        scorer=long_metadata(),
        epochs=EPOCHS,
    )
    (log,) = inspect_eval(task, model="mockllm/model", log_dir=str(log_dir), display="none")
    assert log.status == "success"
    (info,) = list_eval_logs(str(log_dir))
    return str(info.name)


def _by_key(samples: Any) -> dict[tuple[str, int], dict[str, Any]]:
    return {
        (str(s.id), s.epoch): {name: (score.value, score.metadata) for name, score in (s.scores or {}).items()}
        for s in samples
    }


def test_same_scores_as_the_full_log(log_path: str) -> None:
    full = _by_key(read_eval_log(log_path).samples)
    first = _by_key(log_sample_scores(log_path, batch=7))
    assert first == {key: scores for key, scores in full.items() if key[1] == 1}
    assert len(first) == SAMPLES
    every = _by_key(log_sample_scores(log_path, epoch=None, batch=7))
    assert every == full and len(every) == SAMPLES * EPOCHS
    # the per-turn rows survive whole (the summaries would have dropped them)
    assert all(len(scores["long_metadata"][1]["turns"]) == 39 for scores in first.values())


def test_directory_parsed_once_per_batch_not_once_per_sample(log_path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    parses = 0
    parse = async_zip._parse_central_directory

    async def counting(*args: Any, **kwargs: Any) -> Any:
        nonlocal parses
        parses += 1
        return await parse(*args, **kwargs)

    monkeypatch.setattr(async_zip, "_parse_central_directory", counting)
    # inspect's own sample reader: one parse per sample (the quadratic cost)
    assert len(list(read_eval_log_samples(log_path, exclude_fields={"events"}))) == SAMPLES * EPOCHS
    assert parses >= SAMPLES * EPOCHS
    parses = 0
    assert len(list(log_sample_scores(log_path, batch=10))) == SAMPLES
    assert parses <= 1 + math.ceil(SAMPLES / 10)  # the sample list, then one per batch


def test_empty_batch_size_still_reads_everything(log_path: str) -> None:
    assert len(list(log_sample_scores(log_path, batch=0))) == SAMPLES
