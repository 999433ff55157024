"""A loopback stand-in for an OpenAI-compatible chat endpoint, for tests and benchmarks.

A real HTTP server (``aiohttp.web``) on ``127.0.0.1`` with port 0, so the engine is
exercised through its real transport. It serves ``POST /v1/chat/completions`` with:

* a configurable latency (the simulated model time);
* a fault mix (HTTP 5xx, HTTP 429 with ``Retry-After``, hangs longer than the client
  timeout, malformed bodies). Whether a request faults is decided by hashing
  ``(seed, sample key, attempt number)``: the same sample sees the same faults on every run
  regardless of the arrival order of concurrent requests;
* a deterministic responder: a judge prompt (it asks for ``"Guidance"``) gets a valid
  MentalBench verdict JSON (seven scores, Overall, Explanation), anything else an echo
  derived from the last user message;
* usage (prompt/completion tokens counted as whitespace-separated words);
* per-sample request counts, the sample key being the ``X-Sample-Key`` header if sent,
  else a hash of the messages (:func:`messages_key`).

``OpenAIDouble`` runs the server in a background thread (default) or, for benchmarks on
few cores, in a separate process (``in_process=False``) so its CPU does not compete with
the client's; counts are then fetched from ``GET /_double/counts``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, cast

from aiohttp import web

from tests.doubles.openai_rules import unsupported_parameter
from trustmh.mentalalign.schema import ATTRIBUTES, EXPLANATION, OVERALL

Responder = Callable[[list[dict[str, Any]]], str]

SEVEN_ATTRIBUTES = ATTRIBUTES  # kept as a name: tests of the double use it


@dataclass(frozen=True)
class Faults:
    """Fractions of requests that fail, by kind (their sum must be at most 1)."""

    http_5xx: float = 0.0
    http_429: float = 0.0
    timeout: float = 0.0
    malformed: float = 0.0
    # An error whose body echoes the caller's key ("Incorrect API key provided: sk-..."), as some
    # endpoints do; with status 503 it is retried (and logged as such), with 401 it is final.
    echo_key: float = 0.0
    echo_key_status: int = 503
    retry_after: float = 0.2  # seconds announced in the Retry-After header of a 429
    hang_seconds: float = 30.0  # how long a "timeout" request sleeps; above the client timeout
    # Faults only hit the first ``fault_attempts`` requests of each sample (None: every
    # request), so a test can guarantee that a retrying client eventually succeeds.
    fault_attempts: int | None = None

    def __post_init__(self) -> None:
        shares = (self.http_5xx, self.http_429, self.timeout, self.malformed, self.echo_key)
        if sum(shares) > 1.0 + 1e-9 or min(shares) < 0:
            raise ValueError("fault fractions must be non-negative and sum to at most 1")


def messages_key(messages: list[dict[str, Any]]) -> str:
    """The sample key of a request without ``X-Sample-Key``: a hash of its messages."""
    canonical = json.dumps(messages, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]


def _last_user_text(messages: list[dict[str, Any]]) -> str:
    for message in reversed(messages):
        if message.get("role") == "user":
            content = message.get("content")
            return content if isinstance(content, str) else json.dumps(content)
    return ""


def default_responder(messages: list[dict[str, Any]]) -> str:
    """Deterministic replies: a valid MentalBench verdict for judge prompts, else an echo."""
    text = _last_user_text(messages)
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    if '"Guidance"' in text:
        scores: dict[str, int | str] = {name: 1 + digest[i] % 5 for i, name in enumerate(SEVEN_ATTRIBUTES)}
        scores[OVERALL] = 1 + digest[len(SEVEN_ATTRIBUTES)] % 5
        scores[EXPLANATION] = "A deterministic test verdict."
        return json.dumps(scores)
    words = text.split()
    return "I hear you. You said: " + " ".join(words[:12])


def _fraction(seed: int, key: str, attempt: int) -> float:
    digest = hashlib.sha256(f"{seed}|{key}|{attempt}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def choose_fault(faults: Faults, seed: int, key: str, attempt: int) -> str | None:
    """Which fault (if any) the ``attempt``-th request (1-based) of sample ``key`` gets."""
    if faults.fault_attempts is not None and attempt > faults.fault_attempts:
        return None
    draw = _fraction(seed, key, attempt)
    for name in ("http_5xx", "http_429", "timeout", "malformed", "echo_key"):
        share = getattr(faults, name)
        if draw < share:
            return name
        draw -= share
    return None


@dataclass
class DoubleState:
    """What the server has seen; mutated only on the server's event loop."""

    counts: Counter[str] = field(default_factory=Counter)
    outcomes: Counter[str] = field(default_factory=Counter)
    request_times: dict[str, list[float]] = field(default_factory=dict)
    headers_seen: list[dict[str, str]] = field(default_factory=list)
    # generation settings of the first requests (the body without its messages)
    settings_seen: list[dict[str, Any]] = field(default_factory=list)
    models: Counter[str] = field(default_factory=Counter)  # requests per "model" of the body
    in_flight: int = 0  # requests being answered now, and the most at once
    max_in_flight: int = 0
    # Tests read the counters from their own thread while the server loop writes them.
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, key: str, headers: dict[str, str]) -> int:
        with self.lock:
            self.counts[key] += 1
            self.request_times.setdefault(key, []).append(time.monotonic())
            if len(self.headers_seen) < 50:  # enough to check what clients send, bounded memory
                self.headers_seen.append(headers)
            return self.counts[key]

    def snapshot(self) -> tuple[dict[str, int], dict[str, int]]:
        with self.lock:
            return dict(self.counts), dict(self.outcomes)


def build_app(latency: float, faults: Faults, seed: int, responder: Responder, state: DoubleState) -> web.Application:
    async def chat_completions(request: web.Request) -> web.StreamResponse:
        body = await request.json()
        with state.lock:
            state.models[str(body.get("model", ""))] += 1
            state.in_flight += 1
            state.max_in_flight = max(state.max_in_flight, state.in_flight)
        try:
            return await answer(request, body)
        finally:
            with state.lock:
                state.in_flight -= 1

    async def answer(request: web.Request, body: dict[str, Any]) -> web.StreamResponse:
        if (unsupported := unsupported_parameter(body)) is not None:
            return web.json_response({"error": unsupported}, status=400)
        messages = body.get("messages") or []
        key = request.headers.get("X-Sample-Key") or messages_key(messages)
        attempt = state.record(key, dict(request.headers))
        with state.lock:
            if len(state.settings_seen) < 50:
                state.settings_seen.append({k: v for k, v in body.items() if k != "messages"})
        fault = choose_fault(faults, seed, key, attempt)
        with state.lock:
            state.outcomes[fault or "ok"] += 1
        if fault == "timeout":
            await asyncio.sleep(faults.hang_seconds)
        elif latency > 0:
            await asyncio.sleep(latency)
        if fault == "http_5xx":
            return web.json_response({"error": {"message": "simulated overload", "type": "server_error"}}, status=503)
        if fault == "http_429":
            return web.json_response(
                {"error": {"message": "simulated rate limit", "type": "rate_limit"}},
                status=429,
                headers={"Retry-After": f"{faults.retry_after:g}"},
            )
        if fault == "echo_key":
            key = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
            message = f"Incorrect API key provided: {key}. You can find your API key at https://example.invalid."
            return web.json_response(
                {"error": {"message": message, "type": "invalid_request_error", "code": "invalid_api_key"}},
                status=faults.echo_key_status,
            )
        if fault == "malformed":
            return web.Response(text='{"id": "x", "choices": [ {"mess', content_type="application/json")
        reply = responder(messages)
        prompt_tokens = sum(len(str(m.get("content", "")).split()) for m in messages)
        return web.json_response(
            {
                "id": f"chatcmpl-{key}-{attempt}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": body.get("model", "double"),
                "choices": [{"index": 0, "message": {"role": "assistant", "content": reply}, "finish_reason": "stop"}],
                "usage": {
                    "prompt_tokens": prompt_tokens,
                    "completion_tokens": len(reply.split()),
                    "total_tokens": prompt_tokens + len(reply.split()),
                },
            }
        )

    async def counts(_: web.Request) -> web.Response:
        request_counts, outcomes = state.snapshot()
        return web.json_response({"counts": request_counts, "outcomes": outcomes})

    app = web.Application()
    app.router.add_post("/v1/chat/completions", chat_completions)
    app.router.add_get("/_double/counts", counts)
    return app


async def _start(app: web.Application, port: int = 0) -> tuple[web.AppRunner, int]:
    # shutdown_timeout small: hanging "timeout" handlers must not delay stopping the server.
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.1)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", port, backlog=1024)
    await site.start()
    server = cast(asyncio.Server | None, site._server)  # aiohttp exposes the bound port only here
    assert server is not None and server.sockets
    return runner, server.sockets[0].getsockname()[1]


async def _stop(runner: web.AppRunner) -> None:
    """Stop serving and cancel handlers still sleeping (hung "timeout" requests)."""
    await runner.cleanup()
    current = asyncio.current_task()
    pending = [task for task in asyncio.all_tasks() if task is not current]
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)


def serve_forever(latency: float, faults: Faults, seed: int) -> None:
    """Serve until killed, printing the chosen port on stdout (subprocess mode)."""

    async def main() -> None:
        runner, port = await _start(build_app(latency, faults, seed, default_responder, DoubleState()))
        print(port, flush=True)
        try:
            await asyncio.Event().wait()
        finally:
            await _stop(runner)

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass


class OpenAIDouble:
    """Context manager running the double; ``base_url`` ends in ``/v1`` like OpenAI's.

    ``with OpenAIDouble(latency=0.1, faults=Faults(http_5xx=0.2), seed=1) as server:``
    """

    def __init__(
        self,
        latency: float = 0.0,
        faults: Faults | None = None,
        seed: int = 0,
        responder: Responder | None = None,
        in_process: bool = True,
    ) -> None:
        self.latency = latency
        self.faults = faults or Faults()
        self.seed = seed
        self.responder = responder or default_responder
        self.in_process = in_process
        if not in_process and responder is not None:
            raise ValueError("a custom responder needs in_process=True (it cannot be sent to a subprocess)")
        self.state = DoubleState()
        self.port = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._process: subprocess.Popen[str] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def __enter__(self) -> OpenAIDouble:
        if self.in_process:
            self._start_thread()
        else:
            self._start_process()
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _start_thread(self) -> None:
        ready = threading.Event()
        loop = asyncio.new_event_loop()
        self._loop = loop
        app = build_app(self.latency, self.faults, self.seed, self.responder, self.state)

        def run() -> None:
            asyncio.set_event_loop(loop)
            self._runner, self.port = loop.run_until_complete(_start(app))
            ready.set()
            loop.run_forever()

        self._thread = threading.Thread(target=run, name="openai-double", daemon=True)
        self._thread.start()
        if not ready.wait(10):
            raise RuntimeError("the OpenAI double did not start")

    def _start_process(self) -> None:
        # A plain interpreter running this module: unlike multiprocessing's spawn, it does
        # not re-import the caller's __main__, so any script can use subprocess mode.
        package_root = str(Path(__file__).resolve().parents[2])
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [package_root, os.environ.get("PYTHONPATH")]))}
        command = [
            sys.executable,
            "-m",
            "tests.doubles.openai_double",
            "--latency",
            str(self.latency),
            "--seed",
            str(self.seed),
            "--faults",
            json.dumps(asdict(self.faults)),
        ]
        self._process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
        assert self._process.stdout is not None
        line = self._process.stdout.readline()
        if not line.strip().isdigit():
            self._process.kill()
            raise RuntimeError("the OpenAI double subprocess did not start")
        self.port = int(line)

    def close(self) -> None:
        if self._loop is not None and self._runner is not None:
            asyncio.run_coroutine_threadsafe(_stop(self._runner), self._loop).result(10)
            self._loop.call_soon_threadsafe(self._loop.stop)
            if self._thread is not None:
                self._thread.join(10)
            self._loop.close()
            self._loop = None
        if self._process is not None:
            self._process.send_signal(signal.SIGINT)
            try:
                self._process.wait(10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
            if self._process.stdout is not None:
                self._process.stdout.close()
            self._process = None

    def _remote_counts(self) -> dict[str, dict[str, int]]:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/_double/counts", timeout=10) as reply:
            return json.loads(reply.read())

    @property
    def request_counts(self) -> dict[str, int]:
        """Requests received per sample key (a snapshot)."""
        if self.in_process:
            return self.state.snapshot()[0]
        return self._remote_counts()["counts"]

    def traffic(self) -> tuple[dict[str, int], int]:
        """(requests per model name of the body, most requests answered at once); in-process only."""
        with self.state.lock:
            return dict(self.state.models), self.state.max_in_flight

    @property
    def outcomes(self) -> dict[str, int]:
        """How many requests got each outcome: ``ok`` or a fault name."""
        if self.in_process:
            return self.state.snapshot()[1]
        return self._remote_counts()["outcomes"]


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description="Serve the OpenAI double on a loopback port (printed on stdout).")
    parser.add_argument("--latency", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--faults", default="{}", help="JSON of Faults fields")
    args = parser.parse_args()
    serve_forever(args.latency, Faults(**json.loads(args.faults)), args.seed)


if __name__ == "__main__":
    main()
