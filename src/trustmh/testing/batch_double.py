"""A loopback stand-in for the OpenAI Batch API and Anthropic Message Batches, for tests and
benchmarks of ``--batch``.

OpenAI (``base_url``): ``POST /v1/files`` (multipart upload of the JSONL input), ``POST
/v1/batches`` (create, with ``metadata``), ``GET /v1/batches`` (list, newest first, ``after`` /
``limit`` pages), ``GET /v1/batches/{id}`` (poll), ``GET /v1/files/{id}/content`` (the output
and error files). Anthropic (``anthropic_base_url``, ``batch_double_anthropic.py``): ``POST
/v1/messages/batches``, ``GET /v1/messages/batches`` (list), ``GET
/v1/messages/batches/{id}`` and its ``/results`` JSONL stream.

Both protocols share one numbering of batches and one fate per request
(:func:`request_fate`): a batch is in progress for ``processing_delay`` seconds after its
creation, then ends. In a batch whose number is in ``expire`` (or ``cancel``) the second half
of the requests is not processed (expired / cancelled); on a request's first submission a
share ``failure_rate`` of them (chosen by hashing the seed and ``custom_id``) fails with a
server error; resubmitted, they succeed. Replies come from :func:`default_responder`.
The results are produced halfway through the processing time (:func:`prepare_later`), as a
provider works on a batch while it is in progress, so a poll after it has ended only publishes
them: the double's own work is not added to the client's wait (what ``batch_bench.py`` times).
``create_delay`` holds the answer to a create call that many seconds *after* the batch was
accepted: the window in which a killed client has submitted a batch it has not recorded;
``create_failures`` answers the first N accepted creates with HTTP 500 instead.

What it saw: :attr:`BatchState.batches_created`, :attr:`BatchState.submissions` (times each
``custom_id`` was submitted), :attr:`BatchState.polls` and :attr:`BatchState.lists`.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal

from aiohttp import BodyPartReader, web

from trustmh.bulk.batch_backend import jsonl_records
from trustmh.testing.openai_double import default_responder, unsupported_parameter
from trustmh.testing.threaded_app import ThreadedApp

Fate = Literal["ok", "error", "expired", "canceled"]


@dataclass(frozen=True)
class Behaviour:
    processing_delay: float = 0.5
    failure_rate: float = 0.0
    expire: frozenset[int] = frozenset()
    cancel: frozenset[int] = frozenset()
    seed: int = 0
    create_delay: float = 0.0
    create_failures: int = 0  # the first N batches are accepted, but their create call answers HTTP 500


@dataclass
class BatchState:
    files: dict[str, bytes] = field(default_factory=dict)
    batches: dict[str, dict[str, Any]] = field(default_factory=dict)
    submissions: Counter[str] = field(default_factory=Counter)
    batches_created: int = 0
    polls: int = 0
    lists: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def accept(self, custom_ids: list[str]) -> int:
        """Count a new batch and its requests; returns the batch's number (call under the lock)."""
        self.batches_created += 1
        for custom_id in custom_ids:
            self.submissions[custom_id] += 1
        return self.batches_created


def request_fate(state: BatchState, behaviour: Behaviour, number: int, index: int, total: int, custom_id: str) -> Fate:
    if index >= total // 2 and number in behaviour.expire:
        return "expired"
    if index >= total // 2 and number in behaviour.cancel:
        return "canceled"
    digest = hashlib.sha256(f"{behaviour.seed}|{custom_id}".encode()).digest()
    if state.submissions[custom_id] == 1 and int.from_bytes(digest[:8], "big") / 2**64 < behaviour.failure_rate:
        return "error"
    return "ok"


def reply_for(messages: list[dict[str, Any]]) -> tuple[str, int, int]:
    """The reply text and its (prompt, completion) token counts, as words."""
    reply = default_responder(messages)
    return reply, sum(len(str(m.get("content", "")).split()) for m in messages), len(reply.split())


def page(items: list[dict[str, Any]], after: str | None, limit: int) -> tuple[list[dict[str, Any]], bool]:
    """Newest first, starting after the item with id ``after``."""
    ordered = sorted(items, key=lambda item: item["_number"], reverse=True)
    if after is not None:
        ids = [item["id"] for item in ordered]
        ordered = ordered[ids.index(after) + 1 :] if after in ids else []
    return ordered[:limit], len(ordered) > limit


def prepare_later(state: BatchState, behaviour: Behaviour, batch: dict[str, Any], prepare: Any) -> None:
    """Run ``prepare(batch)`` (which fills ``batch["_prepared"]``) halfway through its processing
    time, in the double's event loop; a poll at the end prepares it then if it has not run yet."""

    def run() -> None:
        with state.lock:
            if batch.get("_prepared") is None:
                batch["_prepared"] = prepare(batch)

    asyncio.get_running_loop().call_later(behaviour.processing_delay / 2, run)


def prepared(batch: dict[str, Any], prepare: Any) -> Any:
    """The batch's results, produced now if the halfway callback has not run (call under the lock)."""
    results = batch.get("_prepared")
    if results is None:
        results = prepare(batch)
    batch["_prepared"] = ()  # published: a late halfway callback has nothing left to do
    return results


async def answer_create(behaviour: Behaviour, number: int, answer: dict[str, Any]) -> web.Response:
    """The answer to a create call whose batch ``number`` was accepted."""
    await asyncio.sleep(behaviour.create_delay)  # accepted, not yet answered
    if number <= behaviour.create_failures:
        return web.json_response({"error": {"type": "api_error", "message": "simulated failure"}}, status=500)
    return web.json_response(answer)


def public(batch: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in batch.items() if not key.startswith("_")}


def _openai_line(custom_id: str, fate: Fate, body: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    """(goes to the output file?, the line)."""
    if fate == "ok" and (unsupported := unsupported_parameter(body)) is not None:
        return False, {"id": f"resp-{custom_id[:12]}", "custom_id": custom_id,
                       "response": {"status_code": 400, "body": {"error": unsupported}}}  # fmt: skip
    if fate == "ok":
        text, prompt_tokens, completion_tokens = reply_for(body.get("messages") or [])
        completion = {
            "id": f"chatcmpl-{custom_id[:12]}", "object": "chat.completion", "created": int(time.time()),
            "model": body.get("model", "double"),
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens},
        }  # fmt: skip
        return True, {"id": f"resp-{custom_id[:12]}", "custom_id": custom_id,
                      "response": {"status_code": 200, "body": completion}}  # fmt: skip
    code, status = ("server_error", 500) if fate == "error" else (f"batch_{fate}", 408)
    error = {"message": f"simulated {code}", "type": code, "code": code}
    return False, {"id": f"resp-{custom_id[:12]}", "custom_id": custom_id,
                   "response": {"status_code": status, "body": {"error": error}}}  # fmt: skip


def add_openai_routes(app: web.Application, state: BatchState, behaviour: Behaviour) -> None:
    def new_file(content: bytes) -> str:
        file_id = f"file-{len(state.files) + 1}"
        state.files[file_id] = content
        return file_id

    async def upload(request: web.Request) -> web.Response:
        reader = await request.multipart()
        content, name = b"", "upload.jsonl"
        async for part in reader:
            if isinstance(part, BodyPartReader) and part.name == "file":
                name = part.filename or name
                content = await part.read()
        with state.lock:
            file_id = new_file(content)
        return web.json_response({"id": file_id, "object": "file", "bytes": len(content),
                                  "created_at": int(time.time()), "filename": name, "purpose": "batch",
                                  "status": "processed"})  # fmt: skip

    def prepare(batch: dict[str, Any]) -> tuple[list[str], list[str]]:
        """The lines of the output and error files (the processing of the batch)."""
        lines = jsonl_records(state.files[batch["input_file_id"]])
        output: list[str] = []
        errors: list[str] = []
        for index, line in enumerate(lines):
            fate = request_fate(state, behaviour, batch["_number"], index, len(lines), line["custom_id"])
            ok, result = _openai_line(line["custom_id"], fate, line["body"])
            (output if ok else errors).append(json.dumps(result) + "\n")
        return output, errors

    def finish(batch: dict[str, Any]) -> None:
        """Publish the output and error files once the processing time has passed."""
        output, errors = prepared(batch, prepare)
        number = batch["_number"]
        ended = (
            "expired" if number in behaviour.expire else ("cancelled" if number in behaviour.cancel else "completed")
        )
        batch["status"] = ended
        batch["output_file_id"] = new_file("".join(output).encode()) if output else None
        batch["error_file_id"] = new_file("".join(errors).encode()) if errors else None
        batch["request_counts"] = {"total": len(output) + len(errors), "completed": len(output), "failed": len(errors)}

    async def create(request: web.Request) -> web.Response:
        body = await request.json()
        with state.lock:
            content = state.files.get(body.get("input_file_id", ""))
            if content is None:
                return web.json_response({"error": {"message": "no such file"}}, status=404)
            lines = jsonl_records(content)
            number = state.accept([line["custom_id"] for line in lines])
            batch_id = f"batch_{number}"
            state.batches[batch_id] = {
                "id": batch_id, "object": "batch", "endpoint": body.get("endpoint"),
                "input_file_id": body["input_file_id"], "metadata": body.get("metadata"),
                "completion_window": body.get("completion_window", "24h"), "status": "in_progress",
                "created_at": int(time.time()), "output_file_id": None, "error_file_id": None,
                "request_counts": {"total": len(lines), "completed": 0, "failed": 0},
                "_number": number, "_ready_at": time.monotonic() + behaviour.processing_delay, "_kind": "openai",
            }  # fmt: skip
            answer = public(state.batches[batch_id])
        prepare_later(state, behaviour, state.batches[batch_id], prepare)
        return await answer_create(behaviour, number, answer)

    async def listing(request: web.Request) -> web.Response:
        with state.lock:
            state.lists += 1
            mine = [b for b in state.batches.values() if b["_kind"] == "openai"]
            data, more = page(mine, request.query.get("after"), int(request.query.get("limit", "20")))
            data = [public(b) for b in data]
        return web.json_response({"object": "list", "data": data, "has_more": more,
                                  "first_id": data[0]["id"] if data else None,
                                  "last_id": data[-1]["id"] if data else None})  # fmt: skip

    async def retrieve(request: web.Request) -> web.Response:
        with state.lock:
            state.polls += 1
            batch = state.batches.get(request.match_info["batch"])
            if batch is None:
                return web.json_response({"error": {"message": "no such batch"}}, status=404)
            if batch["status"] == "in_progress" and time.monotonic() >= batch["_ready_at"]:
                finish(batch)
            return web.json_response(public(batch))

    async def content(request: web.Request) -> web.Response:
        with state.lock:
            data = state.files.get(request.match_info["file"])
        if data is None:
            return web.json_response({"error": {"message": "no such file"}}, status=404)
        return web.Response(body=data, content_type="application/octet-stream")

    app.router.add_post("/v1/files", upload)
    app.router.add_post("/v1/batches", create)
    app.router.add_get("/v1/batches", listing)
    app.router.add_get("/v1/batches/{batch}", retrieve)
    app.router.add_get("/v1/files/{file}/content", content)


class BatchDouble(ThreadedApp):
    """``with BatchDouble(processing_delay=1.0, failure_rate=0.1) as api:`` on ``api.base_url``
    (OpenAI) and ``api.anthropic_base_url`` (Anthropic)."""

    thread_name = "batch double"

    def __init__(self, processing_delay: float = 0.5, failure_rate: float = 0.0, expire: set[int] | None = None,
                 seed: int = 0, cancel: set[int] | None = None, create_delay: float = 0.0,
                 create_failures: int = 0) -> None:  # fmt: skip
        from trustmh.testing.batch_double_anthropic import add_anthropic_routes

        self.state = BatchState()
        behaviour = Behaviour(processing_delay, failure_rate, frozenset(expire or ()), frozenset(cancel or ()), seed,
                              create_delay, create_failures)  # fmt: skip
        app = web.Application(client_max_size=256 * 1024**2)
        add_openai_routes(app, self.state, behaviour)
        add_anthropic_routes(app, self.state, behaviour)
        super().__init__(app)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def anthropic_base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"
