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

import json
import time
from typing import Any

from aiohttp import BodyPartReader, web

from tests.doubles.batch_double_anthropic import add_anthropic_routes
from tests.doubles.batch_state import (
    BatchState,
    Behaviour,
    Fate,
    answer_create,
    page,
    prepare_later,
    prepared,
    public,
    reply_for,
    request_fate,
)
from tests.doubles.openai_rules import unsupported_parameter
from tests.doubles.threaded_app import ThreadedApp
from trustmh.bulk.batch_backend import jsonl_records


def _openai_line(
    custom_id: str, fate: Fate, body: dict[str, Any], behaviour: Behaviour | None = None
) -> tuple[bool, dict[str, Any]]:
    """(goes to the output file?, the line)."""
    if fate == "ok" and (unsupported := unsupported_parameter(body)) is not None:
        return False, {"id": f"resp-{custom_id[:12]}", "custom_id": custom_id,
                       "response": {"status_code": 400, "body": {"error": unsupported}}}  # fmt: skip
    if fate == "ok":
        text, prompt_tokens, completion_tokens = reply_for(
            body.get("messages") or [], behaviour and behaviour.responder
        )
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
            ok, result = _openai_line(line["custom_id"], fate, line["body"], behaviour)
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
    (OpenAI) and ``api.anthropic_base_url`` (Anthropic); ``responder(messages) -> text`` replaces
    the default replies (batched and direct calls alike)."""

    thread_name = "batch double"

    def __init__(self, processing_delay: float = 0.5, failure_rate: float = 0.0, expire: set[int] | None = None,
                 seed: int = 0, cancel: set[int] | None = None, create_delay: float = 0.0,
                 create_failures: int = 0, responder: Any = None) -> None:  # fmt: skip
        self.state = BatchState()
        behaviour = Behaviour(processing_delay, failure_rate, frozenset(expire or ()), frozenset(cancel or ()), seed,
                              create_delay, create_failures, responder)  # fmt: skip
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
