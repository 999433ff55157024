"""``trustmh/http``: every odd reply is an error with one clear line; an echoed key is redacted
before the body is cut (issue 25, item 5)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from aiohttp import web
from inspect_ai.model import ChatMessageUser, GenerateConfig

from tests.doubles.threaded_app import ThreadedApp
from trustmh.core.errors import REDACTED
from trustmh.models.http_chatbot import HttpChatbot, HttpChatbotError
from trustmh.models.http_config import load_config

KEY = "odd-key-0a1b2c3d4e5f6a7b"
CONFIG = """\
url: "{base}/{kind}"
secrets: [TRUSTMH_HTTP_BOT_KEY]
headers:
  X-Api-Key: "${{TRUSTMH_HTTP_BOT_KEY}}"
body:
  text: "{{{{message}}}}"
reply: data.reply
"""


def _app() -> web.Application:
    async def reply(request: web.Request) -> web.Response:
        kind = request.match_info["kind"]
        bodies = {
            "null": {"data": {"reply": None}},
            "empty": {"data": {"reply": "  "}},
            "object": {"data": {"reply": {"text": "hi"}}},
            "list": {"data": {"reply": ["hi"]}},
        }
        if kind in bodies:
            return web.json_response(bodies[kind])
        if kind == "redirect":
            return web.Response(status=302, headers={"Location": f"http://elsewhere.example/?k={KEY}"})
        if kind == "html":
            return web.Response(text="<html><body>Please log in</body></html>", content_type="text/html")
        if kind == "echo-at-the-cut":  # the key straddles character 200 of the error body
            return web.Response(status=401, text="x" * 190 + f"{KEY} is not a valid key")
        return web.json_response({"data": {"reply": "fine"}})

    app = web.Application()
    app.router.add_post("/{kind}", reply)
    return app


def _error(tmp_path: Path, kind: str) -> HttpChatbotError:
    with ThreadedApp(_app()) as server:
        path = tmp_path / "bot.yaml"
        path.write_text(CONFIG.format(base=f"http://127.0.0.1:{server.port}", kind=kind), encoding="utf-8")
        chatbot = HttpChatbot(load_config(path), "http/bot")
        with pytest.raises(HttpChatbotError) as raised:
            asyncio.run(chatbot.generate([ChatMessageUser(content="hi")], GenerateConfig()))
    return raised.value


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("null", "holds null: the chatbot gave no answer"),
        ("empty", "holds an empty string"),
        ("object", "holds an object, not text"),
        ("list", "holds a list, not text"),
        ("redirect", "HTTP 302 redirect to"),
        ("html", "the reply is not JSON (text/html: <html><body>Please log in"),
    ],
)
def test_an_odd_reply_is_one_clear_error_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str, expected: str
) -> None:
    monkeypatch.setenv("TRUSTMH_HTTP_BOT_KEY", KEY)
    message = str(_error(tmp_path, kind))
    assert expected in message and "\n" not in message and KEY not in message


def test_a_key_echoed_across_the_cut_is_redacted_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRUSTMH_HTTP_BOT_KEY", KEY)
    message = str(_error(tmp_path, "echo-at-the-cut"))
    assert KEY[:6] not in message and REDACTED in message
