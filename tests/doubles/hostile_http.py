"""Endpoints that misbehave at the transport level, for tests of ``trustmh/http``'s bounds.

* :class:`HostileBot` serves, on ``POST /{kind}``:

  - ``bomb``: a gzip body that inflates to :data:`BOMB_BYTES` (about 100 KB on the wire);
  - ``huge``: a plain JSON body of :data:`HUGE_BYTES`;
  - ``trickle``: a valid JSON reply sent one byte every :data:`TRICKLE_GAP_S` seconds
    (about :data:`TRICKLE_SECONDS` in all), so no single read ever waits long;
  - ``null``: ``{"data": {"reply": null}}`` (no answer: retried by the client);
  - ``slow``: ``{"data": {"reply": "fine"}}`` after :data:`SLOW_SECONDS`;
  - ``unavailable``: HTTP 503 (retried by the client);
  - ``fine``: ``{"data": {"reply": "fine"}}``, gzip-compressed.

* :class:`BlackHole`: a port that accepts no connection and refuses none (its listen queue is
  full), as an unroutable address or a firewall that drops packets behaves: a connect hangs.
"""

from __future__ import annotations

import asyncio
import functools
import gzip
import json
import socket
import zlib
from typing import Self

from aiohttp import web

from tests.doubles.threaded_app import ThreadedApp

BOMB_BYTES = 100_000_000
HUGE_BYTES = 2_000_000
TRICKLE_GAP_S = 0.1
TRICKLE_SECONDS = 6.0
SLOW_SECONDS = 1.0


@functools.cache
def gzip_bomb(size: int = BOMB_BYTES) -> bytes:
    """``size`` zero bytes, gzip-compressed a megabyte at a time (never held whole)."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = bytes(1_000_000)
    parts = [compressor.compress(block) for _ in range(size // len(block))]
    return b"".join([*parts, compressor.flush()])


def _app() -> web.Application:
    bomb = gzip_bomb()

    async def reply(request: web.Request) -> web.StreamResponse:
        kind = request.match_info["kind"]
        if kind == "bomb":
            return web.Response(body=bomb, headers={"Content-Encoding": "gzip", "Content-Type": "application/json"})
        if kind == "huge":
            padding = "x" * HUGE_BYTES
            return web.json_response({"data": {"reply": padding}})
        if kind == "trickle":
            return await _trickle(request)
        if kind == "null":
            return web.json_response({"data": {"reply": None}})
        if kind == "unavailable":
            return web.json_response({"error": "overloaded"}, status=503)
        if kind == "slow":
            await asyncio.sleep(SLOW_SECONDS)
            return web.json_response({"data": {"reply": "fine"}})
        body = gzip.compress(json.dumps({"data": {"reply": "fine"}}).encode())
        return web.Response(body=body, headers={"Content-Encoding": "gzip", "Content-Type": "application/json"})

    app = web.Application()
    app.router.add_post("/{kind}", reply)
    return app


async def _trickle(request: web.Request) -> web.StreamResponse:
    body = json.dumps({"data": {"reply": "s" * int(TRICKLE_SECONDS / TRICKLE_GAP_S)}}).encode()
    response = web.StreamResponse(headers={"Content-Type": "application/json"})
    response.content_length = len(body)
    await response.prepare(request)
    try:
        for byte in body:
            await response.write(bytes([byte]))
            await asyncio.sleep(TRICKLE_GAP_S)
    except (ConnectionResetError, asyncio.CancelledError):  # the client gave up: what the test wants
        return response
    return response


class HostileBot(ThreadedApp):
    """``with HostileBot() as bot:`` serves the kinds above on ``bot.base_url``."""

    thread_name = "hostile http double"

    def __init__(self) -> None:
        super().__init__(_app())

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


class BlackHole:
    """``with BlackHole() as hole:``: connecting to ``127.0.0.1:hole.port`` hangs (see module docstring)."""

    def __init__(self) -> None:
        self._listener = socket.socket()
        self._held: list[socket.socket] = []
        self.port = 0

    def __enter__(self) -> Self:
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(0)
        self.port = self._listener.getsockname()[1]
        # Fill the tiny queue: the kernel then drops every later connection attempt silently.
        for _ in range(3):
            try:
                self._held.append(socket.create_connection(("127.0.0.1", self.port), timeout=0.5))
            except TimeoutError:
                break
        return self

    def __exit__(self, *_: object) -> None:
        for held in self._held:
            held.close()
        self._listener.close()
