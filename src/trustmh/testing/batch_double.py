"""A loopback stand-in for the OpenAI Batch API, for tests and benchmarks of ``--batch``.

Serves, like OpenAI: ``POST /v1/files`` (multipart upload of the JSONL input), ``POST
/v1/batches`` (create), ``GET /v1/batches/{id}`` (poll), ``GET /v1/files/{id}/content`` (the
output and error files). A batch is ``in_progress`` for ``processing_delay`` seconds after its
creation, then ``completed`` — or ``expired`` for the batch numbers in ``expire``, with only
the first half of its requests answered. On a request's first submission a share
``failure_rate`` of them (chosen by hashing the seed and ``custom_id``) lands in the error file
with a 500; resubmitted, they succeed. Replies come from :func:`default_responder`.

What it saw: :attr:`BatchState.batches_created`, :attr:`BatchState.submissions` (times each
``custom_id`` was submitted) and :attr:`BatchState.polls`.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from aiohttp import BodyPartReader, web

from trustmh.testing.openai_double import default_responder
from trustmh.testing.threaded_app import ThreadedApp


@dataclass
class BatchState:
    files: dict[str, bytes] = field(default_factory=dict)
    batches: dict[str, dict[str, Any]] = field(default_factory=dict)
    submissions: Counter[str] = field(default_factory=Counter)
    batches_created: int = 0
    polls: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def _fails(seed: int, custom_id: str, rate: float) -> bool:
    digest = hashlib.sha256(f"{seed}|{custom_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < rate


def _success(custom_id: str, body: dict[str, Any]) -> dict[str, Any]:
    messages = body.get("messages") or []
    reply = default_responder(messages)
    prompt_tokens = sum(len(str(m.get("content", "")).split()) for m in messages)
    completion = {
        "id": f"chatcmpl-{custom_id[:12]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "double"),
        "choices": [{"index": 0, "message": {"role": "assistant", "content": reply}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": len(reply.split())},
    }
    return {
        "id": f"resp-{custom_id[:12]}",
        "custom_id": custom_id,
        "response": {"status_code": 200, "body": completion},
    }


def _failure(custom_id: str, code: str, status: int) -> dict[str, Any]:
    error = {"message": f"simulated {code}", "type": code, "code": code}
    return {
        "id": f"resp-{custom_id[:12]}",
        "custom_id": custom_id,
        "response": {"status_code": status, "body": {"error": error}},
    }


def build_batch_app(
    state: BatchState, processing_delay: float, failure_rate: float, expire: set[int], seed: int
) -> web.Application:
    def file_object(file_id: str, name: str, size: int) -> dict[str, Any]:
        return {"id": file_id, "object": "file", "bytes": size, "created_at": int(time.time()),
                "filename": name, "purpose": "batch", "status": "processed"}  # fmt: skip

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
        return web.json_response(file_object(file_id, name, len(content)))

    def finish(batch: dict[str, Any]) -> None:
        """Write the output and error files once the processing time has passed."""
        lines = [json.loads(line) for line in state.files[batch["input_file_id"]].decode().splitlines() if line.strip()]
        expired = batch["number"] in expire
        output, errors = [], []
        for index, line in enumerate(lines):
            custom_id = line["custom_id"]
            if expired and index >= len(lines) // 2:
                errors.append(_failure(custom_id, "batch_expired", 408))
            elif state.submissions[custom_id] == 1 and _fails(seed, custom_id, failure_rate):
                errors.append(_failure(custom_id, "server_error", 500))
            else:
                output.append(_success(custom_id, line["body"]))
        batch["status"] = "expired" if expired else "completed"
        batch["output_file_id"] = new_file("".join(json.dumps(o) + "\n" for o in output).encode()) if output else None
        batch["error_file_id"] = new_file("".join(json.dumps(e) + "\n" for e in errors).encode()) if errors else None
        batch["request_counts"] = {"total": len(lines), "completed": len(output), "failed": len(errors)}

    def batch_object(batch: dict[str, Any]) -> dict[str, Any]:
        return {key: value for key, value in batch.items() if key not in ("number", "ready_at")}

    async def create(request: web.Request) -> web.Response:
        body = await request.json()
        with state.lock:
            content = state.files.get(body.get("input_file_id", ""))
            if content is None:
                return web.json_response({"error": {"message": "no such file"}}, status=404)
            state.batches_created += 1
            batch_id = f"batch_{state.batches_created}"
            lines = [json.loads(line) for line in content.decode().splitlines() if line.strip()]
            for line in lines:
                state.submissions[line["custom_id"]] += 1
            state.batches[batch_id] = {
                "id": batch_id, "object": "batch", "endpoint": body.get("endpoint"),
                "input_file_id": body["input_file_id"],
                "completion_window": body.get("completion_window", "24h"), "status": "in_progress",
                "created_at": int(time.time()), "output_file_id": None, "error_file_id": None,
                "request_counts": {"total": len(lines), "completed": 0, "failed": 0},
                "number": state.batches_created, "ready_at": time.monotonic() + processing_delay,
            }  # fmt: skip
            return web.json_response(batch_object(state.batches[batch_id]))

    async def retrieve(request: web.Request) -> web.Response:
        with state.lock:
            state.polls += 1
            batch = state.batches.get(request.match_info["batch"])
            if batch is None:
                return web.json_response({"error": {"message": "no such batch"}}, status=404)
            if batch["status"] == "in_progress" and time.monotonic() >= batch["ready_at"]:
                finish(batch)
            return web.json_response(batch_object(batch))

    async def content(request: web.Request) -> web.Response:
        with state.lock:
            data = state.files.get(request.match_info["file"])
        if data is None:
            return web.json_response({"error": {"message": "no such file"}}, status=404)
        return web.Response(body=data, content_type="application/octet-stream")

    app = web.Application(client_max_size=256 * 1024**2)
    app.router.add_post("/v1/files", upload)
    app.router.add_post("/v1/batches", create)
    app.router.add_get("/v1/batches/{batch}", retrieve)
    app.router.add_get("/v1/files/{file}/content", content)
    return app


class BatchDouble(ThreadedApp):
    """``with BatchDouble(processing_delay=1.0, failure_rate=0.1) as api:`` on ``api.base_url``."""

    thread_name = "batch double"

    def __init__(self, processing_delay: float = 0.5, failure_rate: float = 0.0, expire: set[int] | None = None,
                 seed: int = 0) -> None:  # fmt: skip
        self.state = BatchState()
        super().__init__(build_batch_app(self.state, processing_delay, failure_rate, expire or set(), seed))

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"
