"""A model call ends within its ``timeout``, every attempt and back-off included, with one line
naming the model, its endpoint and the reason (issue 35, item 10).

inspect only checks the timeout between attempts: an attempt in flight ran on to its own limit
(an HTTP chatbot's 120 s, the attempt timeout's 180 s) and a call that gave up was an opaque
``RetryError``. Timeouts here are seconds, so the tests stay fast.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from inspect_ai.model import ChatMessageUser, GenerateConfig, Model, get_model

from tests.doubles.hostile_http import SLOW_SECONDS, TRICKLE_SECONDS, HostileBot
from tests.doubles.openai_double import Faults, OpenAIDouble
from trustmh.core import run_stop
from trustmh.models.call_deadline import TIMED_OUT, ModelCallError, bounded_calls

SLACK_S = 1.5  # cancelling the attempt in flight and building the error line
CONFIG = 'url: "{url}"\nbody: {{text: "{{{{message}}}}"}}\nreply: data.reply\nmax_connections: {connections}\n'


@pytest.fixture(autouse=True)
def _fresh_stop() -> Iterator[None]:
    run_stop.reset()
    yield
    run_stop.reset()


def _bot(tmp_path: Path, url: str, connections: int = 8) -> Model:
    path = tmp_path / "bot.yaml"
    path.write_text(CONFIG.format(url=url, connections=connections), encoding="utf-8")
    return bounded_calls(get_model("trustmh/http/bot", http_config=str(path), memoize=False))


def _timed(model: Model, config: GenerateConfig) -> tuple[float, str]:
    started = time.monotonic()
    with pytest.raises(ModelCallError) as raised:
        asyncio.run(model.generate([ChatMessageUser(content="hi")], config=config))
    message = str(raised.value)
    assert "\n" not in message and "RetryError" not in message, message
    return time.monotonic() - started, message


def test_a_trickled_reply_is_cut_at_the_timeout_and_stops_the_run(tmp_path: Path) -> None:
    with HostileBot() as bot:
        model = _bot(tmp_path, f"{bot.base_url}/trickle")  # the config's own per-request timeout: 120 s
        elapsed, message = _timed(model, GenerateConfig(timeout=2, max_retries=6))
    assert elapsed < 2 + SLACK_S < TRICKLE_SECONDS, elapsed
    assert f"trustmh/http/bot at {bot.base_url}/trickle: no answer within --timeout 2 s" in message, message
    assert "1 attempt, the last cut while waiting for its reply" in message, message
    assert run_stop.stop_reasons() == [TIMED_OUT] and run_stop.stop_messages() == [message]


def test_a_null_reply_is_retried_only_within_the_timeout(tmp_path: Path) -> None:
    with HostileBot() as bot:
        elapsed, message = _timed(_bot(tmp_path, f"{bot.base_url}/null"), GenerateConfig(timeout=4, max_retries=6))
    assert elapsed < 4 + SLACK_S, elapsed
    assert "no answer within --timeout 4 s" in message and "reply path 'data.reply' holds null" in message, message


def test_a_call_that_gives_up_in_time_is_one_line_and_does_not_stop_the_run(tmp_path: Path) -> None:
    with HostileBot() as bot:
        model = _bot(tmp_path, f"{bot.base_url}/unavailable")
        elapsed, message = _timed(model, GenerateConfig(timeout=60, max_retries=0))
    assert elapsed < 10, elapsed
    assert f"at {bot.base_url}/unavailable: gave up after" in message and "(1 attempt; last: " in message, message
    assert "HTTP 503" in message, message
    assert run_stop.stop_reasons() == []  # a sample error, as before: the run goes on


def test_waiting_for_a_connection_slot_is_not_counted(tmp_path: Path) -> None:
    """Three calls through one connection: the last waits two replies for its slot, longer than
    its timeout, and still gets its answer."""
    with HostileBot() as bot:
        model = _bot(tmp_path, f"{bot.base_url}/slow", connections=1)
        timeout = SLOW_SECONDS * 2

        async def three() -> list[str]:
            config = GenerateConfig(timeout=timeout, max_retries=0, max_connections=1)
            calls = [model.generate([ChatMessageUser(content=f"hi {n}")], config=config) for n in range(3)]
            return [output.completion for output in await asyncio.gather(*calls)]

        started = time.monotonic()
        assert asyncio.run(three()) == ["fine"] * 3
    assert time.monotonic() - started >= 3 * SLOW_SECONDS > timeout  # one at a time


def test_an_openai_endpoint_that_hangs_is_cut_at_the_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-deadline")
    with OpenAIDouble(faults=Faults(timeout=1.0, hang_seconds=30)) as double:
        api = get_model(
            "openai/test-model", base_url=double.base_url, max_retries=0, responses_api=False, memoize=False
        )
        elapsed, message = _timed(bounded_calls(api), GenerateConfig(timeout=2, max_retries=6, attempt_timeout=20))
    assert elapsed < 2 + SLACK_S, elapsed
    assert f"openai/test-model at {double.base_url}: no answer within --timeout 2 s" in message, message
