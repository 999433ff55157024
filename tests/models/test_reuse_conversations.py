"""Reuse never changes an answer of a conversation task.

Every conversation task is run for one conversation on the embedded model with all its reuse on
(stored KV states, the live context, calls decoded together, identical requests answered once);
each of its calls is then answered again on a model with reuse off and an empty context, as a new
process would answer it alone. A later turn's prompt holds the model's earlier answers: their KV
cells, computed one token at a time while decoding, differ slightly from the same tokens
prefilled together, so reusing them turned greedy answers (trustmh.models.reuse, forget_answer).
"""

from __future__ import annotations

import pytest

from trustmh.models.llama import EmbeddedLlama, smollm2_path
from trustmh.models.providers import fresh_answer

CONVERSATION_TASKS = [
    "crisis_psychosis_bench",
    "crisis_simulated_risk",
    "safety_crescendo",
    "dialogue_mindeval",
    "reliability_cpsycoune",
]


def run_conversations(model: EmbeddedLlama, log_dir: str, monkeypatch: pytest.MonkeyPatch) -> list:
    from inspect_ai import eval

    from trustmh.run.runner import build_tasks

    monkeypatch.setattr("trustmh.models.providers.shared_llama", lambda path=None: model)
    tasks = build_tasks(CONVERSATION_TASKS, "starter", None)
    # Shorter answers than the starter's keep the test to a few minutes; turns still carry earlier answers.
    return eval(tasks, model="trustmh/smollm2", limit=1, log_dir=log_dir, display="none", max_tokens=48, max_tasks=5)


def model_calls(logs: list) -> list:
    """The deterministic embedded-model calls of the logs, prompts read back whole (inspect stores
    long texts as attachments); a simulated user sampling at temperature > 0 is left out."""
    from inspect_ai.log import read_eval_log

    calls = []
    for log in logs:
        whole = read_eval_log(log.location, resolve_attachments=True)
        for sample in whole.samples or []:
            for event in sample.events:
                if event.event == "model" and event.model.startswith("trustmh/") and not event.config.temperature:
                    calls.append((whole.eval.task, sample.id, event))
    return calls


@pytest.mark.slow
def test_every_conversation_answer_is_the_one_a_fresh_model_gives(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    reusing = EmbeddedLlama(smollm2_path(), cache_mb=64, batch=4)
    try:
        logs = run_conversations(reusing, str(tmp_path), monkeypatch)
    finally:
        reusing.close()
    assert all(log.status == "success" for log in logs)
    calls = model_calls(logs)
    tasks = {task.split("/")[-1] for task, _, _ in calls}
    assert tasks == set(CONVERSATION_TASKS)
    # Later turns: prompts that hold an earlier answer of the model.
    assert sum(any(m.role == "assistant" for m in event.input) for _, _, event in calls) >= len(CONVERSATION_TASKS)
    fresh = EmbeddedLlama(smollm2_path(), cache_mb=0, batch=0)
    try:
        differ = [
            (task, sample_id)
            for task, sample_id, event in calls
            if fresh_answer(fresh, event.input, event.config) != event.output.completion
        ]
    finally:
        fresh.close()
    assert differ == []
