"""Issue 30: the embedded model never times out while its calls wait their turn.

Its calls wait in the model's own queue (:mod:`trustmh.models.scheduling`) while other calls are
answered; inspect's attempt timeout counted that wait, so beside an API model (which brings the
attempt timeout into the run) or on a busy machine a waiting call was cancelled — an answer being
computed thrown away — and retried. The double below is the real queue and worker thread of
:class:`~trustmh.models.llama.EmbeddedLlama` with the llama.cpp call replaced by a slow stand-in
that counts the calls it answers.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task, eval_set
from inspect_ai.dataset import Sample
from inspect_ai.log import read_eval_log
from inspect_ai.scorer import includes
from inspect_ai.solver import generate, user_message

from trustmh.models import llama as llama_module
from trustmh.models.llama import ChatResult, EmbeddedLlama
from trustmh.models.reuse import AnswerCache, Request
from trustmh.models.scheduling import PrefixQueue
from trustmh.run.models import attempt_timeout_on_api_models, with_redacting_models
from trustmh.run.runner import eval_set_options

SECONDS_PER_CALL = 0.4
ATTEMPT_TIMEOUT = 1  # a third call in the queue waits longer than this
SAMPLES, TURNS = 6, 2


class SlowQueuedModel(EmbeddedLlama):
    """The embedded model's queue and worker thread, answering each call in ``seconds``."""

    def __init__(self, seconds: float = SECONDS_PER_CALL) -> None:  # no GGUF: nothing loaded
        self.path = Path("stand-in.gguf")
        self._lock = threading.Lock()
        self._llama = object()
        self._answers = AnswerCache(capacity=0)
        self._reuse = False
        self._template = self._formatter = None
        self._waiting: PrefixQueue[Any] = PrefixQueue(max_skips=0)
        self._wakeup = threading.Condition()
        self._closed = False
        self._long_wait_said = False
        self.seconds = seconds
        self.answered: list[Request] = []
        self._worker = threading.Thread(target=self._serve, name="stand-in", daemon=True)
        self._worker.start()

    def _complete(self, request: Request) -> ChatResult:
        time.sleep(self.seconds)
        self.answered.append(request)
        return ChatResult(text=f"answer {len(self.answered)}", input_tokens=10, output_tokens=3, finish_reason="stop")

    def close(self) -> None:
        with self._wakeup:
            self._closed = True
            self._wakeup.notify_all()


@pytest.fixture
def slow_model(monkeypatch: pytest.MonkeyPatch) -> Any:
    model = SlowQueuedModel()
    monkeypatch.setattr("trustmh.models.providers.shared_llama", lambda path=None: model)
    yield model
    model.close()


def two_turns() -> Task:
    return Task(
        dataset=[Sample(input=f"question {i}", target="answer", id=i) for i in range(SAMPLES)],
        solver=[generate(), user_message("and then?"), generate()],
        scorer=includes(),
        name="two_turns",
    )


def test_only_api_models_get_the_attempt_timeout() -> None:
    options = eval_set_options(["trustmh/smollm2", "mockllm/model"], attempt_timeout=7)
    assert options["attempt_timeout"] == 7  # the eval-wide value, as before ...
    options = attempt_timeout_on_api_models(with_redacting_models(options))
    assert options["attempt_timeout"] is None  # ... moved onto the API model only
    by_name = {str(model): model for model in options["model"]}
    assert by_name["trustmh/smollm2"].config.attempt_timeout is None
    assert by_name["mockllm/model"].config.attempt_timeout == 7


def test_waiting_calls_are_not_timed_out_and_no_finished_work_is_lost(
    slow_model: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Beside an API model (the OpenAI double), with an attempt timeout shorter than the queue's
    wait: every sample finishes without a retry and the embedded model answers exactly one call
    per turn asked."""
    from tests.hardening.double import running_double
    from tests.hardening.hardening_cli import TEST_KEY

    with running_double(latency=0.0, seed=4) as double:
        monkeypatch.setenv("OPENAI_BASE_URL", double.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", TEST_KEY)
        models = ["trustmh/smollm2", "openai/queue-wait-test"]
        options = eval_set_options(models, attempt_timeout=ATTEMPT_TIMEOUT, display="none")
        options = attempt_timeout_on_api_models(with_redacting_models(options))
        success, logs = eval_set(tasks=[two_turns()], log_dir=str(tmp_path), **options)
    assert success, [(log.eval.model, log.error) for log in logs]
    embedded = read_eval_log(next(log.location for log in logs if "smollm2" in log.eval.model))
    assert embedded.status == "success" and embedded.samples is not None
    assert len(embedded.samples) == SAMPLES
    for sample in embedded.samples:
        assert sample.error is None and not sample.error_retries, sample.error_retries
        assert [m.role for m in sample.messages].count("assistant") == TURNS
    assert len(slow_model.answered) == SAMPLES * TURNS  # one call per turn: none redone, none lost
    failed_calls = [
        event
        for sample in embedded.samples
        for event in sample.events
        if event.event == "model" and getattr(event, "error", None)
    ]
    assert failed_calls == []  # no attempt was cut off (an AttemptTimeoutError would be here)


def test_a_long_wait_is_said_once(monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(llama_module, "LONG_WAIT_SECONDS", 0.5)
    model = SlowQueuedModel(seconds=0.3)

    async def many() -> list[ChatResult]:
        calls = [model.achat([{"role": "user", "content": f"q{i}"}], 8, 0.0) for i in range(5)]
        return await asyncio.gather(*calls)

    try:
        with caplog.at_level(logging.INFO, logger=llama_module.__name__):
            results = asyncio.run(many())
    finally:
        model.close()
    assert max(result.waited_seconds for result in results) >= 0.5
    said = [record for record in caplog.records if "wait their turn" in record.getMessage()]
    assert len(said) == 1, [r.getMessage() for r in caplog.records]
    assert "counts towards no timeout" in said[0].getMessage()
    # normal queueing: an info line, never a warning (nothing for the user to act on)
    assert said[0].levelno == logging.INFO


@pytest.mark.slow
def test_embedded_beside_an_api_model_has_no_retry_storm(tmp_path: Path) -> None:
    """The issue's command, shortened: the real embedded model beside an API model (the OpenAI
    double), with an attempt timeout (2 s) far below what its queue makes a call wait. Before,
    this printed a warning per cut-off attempt and redid the work; now nothing is retried and
    the embedded model answers exactly one call per sample."""
    from inspect_ai.event import ModelEvent
    from inspect_ai.log import read_eval_log

    from tests.hardening.double import running_double
    from tests.hardening.hardening_cli import REPO, TEST_KEY, isolated_env, run_cli

    home = tmp_path / "home"
    home.mkdir()
    logs = tmp_path / "logs"
    with running_double(latency=0.0, seed=3) as double:
        env = isolated_env(home, OPENAI_BASE_URL=double.base_url, OPENAI_API_KEY=TEST_KEY)
        result = run_cli(
            ["run", "crisis_classification", "-m", "trustmh/smollm2", "-m", "openai/test-model", "--limit", "4"]
            + ["--attempt-timeout", "2", "--log-dir", str(logs), "--no-report"],
            REPO,
            env,
            timeout=1800,
        )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    output = result.stdout + result.stderr
    assert "retried" not in output and "Sample error" not in output and "AttemptTimeoutError" not in output
    [embedded] = [read_eval_log(str(p)) for p in logs.glob("*.eval") if "smollm2" in read_eval_log(str(p)).eval.model]
    assert embedded.status == "success" and embedded.samples is not None and len(embedded.samples) == 4
    for sample in embedded.samples:
        assert sample.error is None and not sample.error_retries
        assert len([e for e in sample.events if isinstance(e, ModelEvent)]) == 1  # one call, none redone
    assert ": crisis_classification · trustmh/smollm2 · 4 samples in" in result.stdout
