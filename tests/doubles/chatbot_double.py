"""A loopback stand-in for a deployed, session-based chatbot, for tests of ``trustmh/http``.

It speaks a made-up product API of the kind ``trustmh/http`` is for (not OpenAI's):

* ``POST /api/sessions`` → ``{"data": {"id": "s-1"}}`` opens a conversation;
* ``POST /api/sessions/{id}/messages`` with ``{"text": ...}`` →
  ``{"data": {"reply": {"text": ...}}, "usage": {"in": n, "out": m}}`` — the product keeps
  the history itself; the reply is :func:`default_responder` of the message;
* both need the header ``X-Api-Key`` (401 otherwise); with ``echo_key=True`` a reply (and a
  401's body) repeats the key it was sent, as a careless endpoint might;
* ``fail_first`` makes the first n message requests of each session answer HTTP 503.

What it saw is kept in :attr:`ChatbotDouble.sessions` (session id → user turns received).
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.doubles.openai_double import default_responder
from tests.doubles.threaded_app import ThreadedApp


@dataclass
class ChatbotState:
    sessions: dict[str, list[str]] = field(default_factory=dict)
    failures: dict[str, int] = field(default_factory=dict)
    unauthorised: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def build_chatbot_app(api_key: str, state: ChatbotState, echo_key: bool, fail_first: int) -> web.Application:
    counter = itertools.count(1)

    def authorised(request: web.Request) -> web.Response | None:
        sent = request.headers.get("X-Api-Key", "")
        if sent == api_key:
            return None
        with state.lock:
            state.unauthorised += 1
        detail = f"bad key {sent}" if echo_key else "bad key"
        return web.json_response({"error": detail}, status=401)

    async def create_session(request: web.Request) -> web.Response:
        if (refused := authorised(request)) is not None:
            return refused
        session_id = f"s-{next(counter)}"
        with state.lock:
            state.sessions[session_id] = []
        return web.json_response({"data": {"id": session_id}})

    async def message(request: web.Request) -> web.Response:
        if (refused := authorised(request)) is not None:
            return refused
        session_id = request.match_info["session"]
        body: dict[str, Any] = await request.json()
        with state.lock:
            if session_id not in state.sessions:
                return web.json_response({"error": "no such session"}, status=404)
            failed = state.failures.get(session_id, 0)
            if failed < fail_first:
                state.failures[session_id] = failed + 1
                return web.json_response({"error": "overloaded"}, status=503)
            state.sessions[session_id].append(str(body.get("text", "")))
        text = default_responder([{"role": "user", "content": str(body.get("text", ""))}])
        if echo_key:
            text += f" (your key: {request.headers.get('X-Api-Key', '')})"
        usage = {"in": len(str(body.get("text", "")).split()), "out": len(text.split())}
        return web.json_response({"data": {"reply": {"text": text}}, "usage": usage})

    app = web.Application()
    app.router.add_post("/api/sessions", create_session)
    app.router.add_post("/api/sessions/{session}/messages", message)
    return app


class ChatbotDouble(ThreadedApp):
    """``with ChatbotDouble(api_key="k") as bot:`` serves on ``bot.base_url`` in a thread."""

    thread_name = "chatbot double"

    def __init__(self, api_key: str, echo_key: bool = False, fail_first: int = 0) -> None:
        self.state = ChatbotState()
        super().__init__(build_chatbot_app(api_key, self.state, echo_key, fail_first))

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def sessions(self) -> dict[str, list[str]]:
        with self.state.lock:
            return {key: list(turns) for key, turns in self.state.sessions.items()}
