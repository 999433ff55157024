"""An aiohttp app served on loopback from its own thread and event loop, as a context manager.

The test doubles (batch API, deployed chatbot) run beside code under test that has its own
event loop or none, so each serves from a private loop in a daemon thread.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Self

from aiohttp import web

from tests.doubles.openai_double import _start, _stop


class ThreadedApp:
    """``with Subclass(...) as server:`` serves ``app`` on ``127.0.0.1:server.port``."""

    thread_name = "test-double"

    def __init__(self, app: web.Application) -> None:
        self._app = app
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Self:
        ready = threading.Event()

        def run() -> None:
            asyncio.set_event_loop(self._loop)
            self._runner, self.port = self._loop.run_until_complete(_start(self._app))
            ready.set()
            self._loop.run_forever()

        self._thread = threading.Thread(target=run, name=self.thread_name, daemon=True)
        self._thread.start()
        if not ready.wait(10):
            raise RuntimeError(f"the {self.thread_name} did not start")
        return self

    def __exit__(self, *_: object) -> None:
        if self._runner is not None:
            asyncio.run_coroutine_threadsafe(_stop(self._runner), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(10)
        self._loop.close()
