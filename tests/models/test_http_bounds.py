"""``trustmh/http`` bounds every exchange: the reply's size counted after decompression (a gzip
bomb stops early), the whole reply within the configured timeout however slowly it trickles,
and connecting within ``connect_timeout`` (issue 25, item 5)."""

from __future__ import annotations

import asyncio
import time
import tracemalloc
from pathlib import Path

import pytest
from inspect_ai.model import ChatMessageUser, GenerateConfig

from tests.doubles.hostile_http import BOMB_BYTES, TRICKLE_SECONDS, BlackHole, HostileBot
from trustmh.models.http_chatbot import HttpChatbot, HttpChatbotError
from trustmh.models.http_config import DEFAULT_MAX_RESPONSE_BYTES, load_config

CONFIG = """\
url: "{base}/{kind}"
body:
  text: "{{{{message}}}}"
reply: data.reply
timeout: {timeout}
"""


def _chatbot(tmp_path: Path, base: str, kind: str, timeout: float = 30, extra: str = "") -> HttpChatbot:
    path = tmp_path / "bot.yaml"
    path.write_text(CONFIG.format(base=base, kind=kind, timeout=timeout) + extra, encoding="utf-8")
    return HttpChatbot(load_config(path), "http/bot")


def _ask(chatbot: HttpChatbot) -> str:
    return asyncio.run(chatbot.generate([ChatMessageUser(content="hi")], GenerateConfig())).completion


def test_a_gzip_bomb_stops_at_the_bound_without_inflating_it(tmp_path: Path) -> None:
    with HostileBot() as bot:
        chatbot = _chatbot(tmp_path, bot.base_url, "bomb", extra="max_response_bytes: 1000000\n")
        tracemalloc.start()
        try:
            with pytest.raises(HttpChatbotError) as raised:
                _ask(chatbot)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert "the reply is larger than 1,000,000 bytes (max_response_bytes" in str(raised.value)
    assert not chatbot.should_retry(raised.value)
    assert peak < BOMB_BYTES / 10, f"{peak:,} bytes held while reading a {BOMB_BYTES:,}-byte bomb"


def test_a_huge_plain_body_is_refused_and_the_default_bound_is_a_few_megabytes(tmp_path: Path) -> None:
    assert 1_000_000 <= DEFAULT_MAX_RESPONSE_BYTES <= 10_000_000
    with HostileBot() as bot:
        chatbot = _chatbot(tmp_path, bot.base_url, "huge", extra="max_response_bytes: 100000\n")
        with pytest.raises(HttpChatbotError, match="larger than 100,000 bytes"):
            _ask(chatbot)
        assert _ask(_chatbot(tmp_path, bot.base_url, "fine")) == "fine"  # gzip within the bound is read


def test_a_trickled_reply_is_cut_at_the_configured_timeout(tmp_path: Path) -> None:
    with HostileBot() as bot:
        chatbot = _chatbot(tmp_path, bot.base_url, "trickle", timeout=1)
        started = time.monotonic()
        with pytest.raises(HttpChatbotError) as raised:
            _ask(chatbot)
        elapsed = time.monotonic() - started
    assert "no complete reply within 1 s" in str(raised.value)
    assert elapsed < TRICKLE_SECONDS / 2, f"{elapsed:.1f} s for a 1 s timeout"


def test_a_connection_that_hangs_is_abandoned_at_the_connect_timeout(tmp_path: Path) -> None:
    with BlackHole() as hole:
        chatbot = _chatbot(tmp_path, f"http://127.0.0.1:{hole.port}", "x", extra="connect_timeout: 1\n")
        started = time.monotonic()
        with pytest.raises(HttpChatbotError, match="no connection within 1 s"):
            _ask(chatbot)
    assert time.monotonic() - started < 10
