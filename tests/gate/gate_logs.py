"""Real logs for the gate's tests: two starter tasks answered by ``trustmh/replay`` models.

``reliability_usmle_mental`` (8 multiple-choice items: the reliability headline, per-item
``correct``) and ``crisis_classification`` (21 messages: accuracy, macro F1, per-item
``correct``). Each answer is the gold one unless its item id is listed as wrong.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log, write_eval_log

import trustmh._registry  # noqa: F401  (registers the replay provider)
from trustmh.run.runner import build_tasks

TASKS = ("reliability_usmle_mental", "crisis_classification")
USMLE_IDS = [f"starter-usmle-{i}" for i in range(8)]


def _wrong_answer(target: str, task: str) -> str:
    if task == "reliability_usmle_mental":
        return "Answer: " + ("A" if target != "A" else "B")
    return "no_crisis" if target != "no_crisis" else "self-harm"


def make_run(directory: Path, label: str, wrong: Iterable[str] = ()) -> Path:
    """A finished run of :data:`TASKS` by ``trustmh/replay/<label>`` in ``directory``."""
    wrong = set(wrong)
    tasks = build_tasks(list(TASKS), "starter", None)
    answers = {}
    for name, task in zip(TASKS, tasks, strict=True):
        for sample in task.dataset:
            target = str(sample.target)
            gold = f"Answer: {target}" if name == "reliability_usmle_mental" else target
            answers[str(sample.id)] = _wrong_answer(target, name) if sample.id in wrong else gold
    directory.mkdir(parents=True, exist_ok=True)
    responses = directory.parent / f"{directory.name}-{label}.jsonl"
    responses.write_text("".join(json.dumps({"id": k, "output": v}) + "\n" for k, v in answers.items()))
    logs = inspect_eval(
        tasks,
        model=f"trustmh/replay/{label}",
        model_args={"responses": str(responses)},
        log_dir=str(directory),
        display="none",
    )
    assert all(log.status == "success" for log in logs), [log.error for log in logs]
    return directory


def with_errored_sample(directory: Path) -> Path:
    """The crisis log of ``directory`` rewritten with one sample ended in an error (status still success)."""
    from inspect_ai._util.error import EvalError

    for path in directory.glob("*.eval"):
        log = read_eval_log(str(path))
        if log.eval.task.endswith("crisis_classification"):
            assert log.samples
            log.samples[0].error = EvalError(message="RateLimitError: simulated", traceback="", traceback_ansi="")
            write_eval_log(log, str(path))
            return path
    raise AssertionError("no crisis_classification log")


def with_unfinished_log(directory: Path) -> Path:
    """The usmle log of ``directory`` marked as interrupted (status started, no results)."""
    for path in directory.glob("*.eval"):
        log = read_eval_log(str(path))
        if log.eval.task.endswith("reliability_usmle_mental"):
            log.status = "started"
            log.results = None
            write_eval_log(log, str(path))
            return path
    raise AssertionError("no usmle log")
