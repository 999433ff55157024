"""The Anthropic Message Batches side of the batch double (:mod:`tests.doubles.batch_double`).

``POST /v1/messages/batches`` (``{"requests": [{"custom_id", "params"}]}``), ``GET
/v1/messages/batches`` (newest first, ``after_id`` / ``limit`` pages), ``GET
/v1/messages/batches/{id}`` (``processing_status`` ``in_progress`` until the processing delay
has passed, then ``ended`` with its ``request_counts`` and ``results_url``) and ``GET
/v1/messages/batches/{id}/results`` (JSONL: ``succeeded`` / ``errored`` / ``expired`` /
``canceled`` per request, in no particular order). ``POST /v1/messages`` answers one call
at once (Anthropic models without ``--batch``). As API version 2026-10-21 (sent by the
``anthropic`` SDK 2.x), both answer 400 to a request carrying ``temperature``, ``top_p`` or
``top_k``, whatever their value.
"""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from typing import Any

from aiohttp import web

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

_COUNT_NAME: dict[Fate, str] = {"ok": "succeeded", "error": "errored", "expired": "expired", "canceled": "canceled"}


# Sampling parameters API version 2026-10-21 removed: a request carrying one gets a 400.
_REMOVED_SAMPLING = ("temperature", "top_p", "top_k")


def _removed_sampling_error(params: dict[str, Any], where: str) -> web.Response | None:
    present = [name for name in _REMOVED_SAMPLING if name in params]
    if not present:
        return None
    error = {"type": "invalid_request_error", "message": f"{where}{present[0]}: Extra inputs are not permitted"}
    return web.json_response({"type": "error", "error": error}, status=400)


def _timestamp(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat().replace("+00:00", "Z")


def _result(custom_id: str, fate: Fate, params: dict[str, Any], behaviour: Behaviour | None = None) -> dict[str, Any]:
    if fate == "ok":
        messages = list(params.get("messages") or [])
        if params.get("system"):
            messages.insert(0, {"role": "system", "content": params["system"]})
        text, input_tokens, output_tokens = reply_for(messages, behaviour and behaviour.responder)
        message = {
            "id": f"msg_{custom_id[:12]}", "type": "message", "role": "assistant", "model": params.get("model"),
            "content": [{"type": "text", "text": text}], "stop_reason": "end_turn", "stop_sequence": None,
            "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens},
        }  # fmt: skip
        return {"custom_id": custom_id, "result": {"type": "succeeded", "message": message}}
    if fate == "error":
        error = {"type": "error", "error": {"type": "api_error", "message": "simulated server error"}}
        return {"custom_id": custom_id, "result": {"type": "errored", "error": error}}
    return {"custom_id": custom_id, "result": {"type": fate}}


def add_anthropic_routes(app: web.Application, state: BatchState, behaviour: Behaviour) -> None:
    def prepare(batch: dict[str, Any]) -> list[dict[str, Any]]:
        """Every request's result (the processing of the batch)."""
        requests = batch["_requests"]
        return [
            _result(
                r["custom_id"],
                request_fate(state, behaviour, batch["_number"], i, len(requests), r["custom_id"]),
                r["params"],
                behaviour,
            )  # fmt: skip
            for i, r in enumerate(requests)
        ]

    def finish(batch: dict[str, Any], request: web.Request) -> None:
        results = prepared(batch, prepare)
        batch["_results"] = results[::-1]  # "not guaranteed to be in the same order as requests"
        counts = dict.fromkeys(_COUNT_NAME.values(), 0) | {"processing": 0}
        for line in results:
            counts[line["result"]["type"]] += 1
        batch["request_counts"] = counts
        batch["processing_status"] = "ended"
        batch["ended_at"] = _timestamp(time.time())
        batch["results_url"] = f"{request.scheme}://{request.host}/v1/messages/batches/{batch['id']}/results"

    async def create(request: web.Request) -> web.Response:
        body = await request.json()
        requests = body.get("requests") or []
        for index, item in enumerate(requests):
            rejected = _removed_sampling_error(item.get("params") or {}, f"requests.{index}.params.")
            if rejected is not None:
                return rejected
        with state.lock:
            number = state.accept([r["custom_id"] for r in requests])
            batch_id = f"msgbatch_{number:04d}"
            now = time.time()
            state.batches[batch_id] = {
                "id": batch_id, "type": "message_batch", "processing_status": "in_progress",
                "request_counts": {"processing": len(requests), "succeeded": 0, "errored": 0, "canceled": 0,
                                   "expired": 0},
                "created_at": _timestamp(now), "expires_at": _timestamp(now + 86400), "ended_at": None,
                "archived_at": None, "cancel_initiated_at": None, "results_url": None,
                "_number": number, "_ready_at": time.monotonic() + behaviour.processing_delay, "_kind": "anthropic",
                "_requests": requests,
            }  # fmt: skip
            answer = public(state.batches[batch_id])
        prepare_later(state, behaviour, state.batches[batch_id], prepare)
        return await answer_create(behaviour, number, answer)

    async def listing(request: web.Request) -> web.Response:
        with state.lock:
            state.lists += 1
            mine = [b for b in state.batches.values() if b["_kind"] == "anthropic"]
            data, more = page(mine, request.query.get("after_id"), int(request.query.get("limit", "20")))
            data = [public(b) for b in data]
        return web.json_response({"data": data, "has_more": more, "first_id": data[0]["id"] if data else None,
                                  "last_id": data[-1]["id"] if data else None})  # fmt: skip

    def lookup(request: web.Request) -> dict[str, Any] | None:
        batch = state.batches.get(request.match_info["batch"])
        return batch if batch is not None and batch["_kind"] == "anthropic" else None

    async def retrieve(request: web.Request) -> web.Response:
        with state.lock:
            state.polls += 1
            batch = lookup(request)
            if batch is None:
                return web.json_response({"type": "error", "error": {"type": "not_found_error"}}, status=404)
            if batch["processing_status"] == "in_progress" and time.monotonic() >= batch["_ready_at"]:
                finish(batch, request)
            return web.json_response(public(batch))

    async def results(request: web.Request) -> web.Response:
        with state.lock:
            batch = lookup(request)
            lines = None if batch is None else batch.get("_results")
        if lines is None:
            return web.json_response({"type": "error", "error": {"type": "not_found_error"}}, status=404)
        return web.Response(body="".join(json.dumps(line) + "\n" for line in lines).encode(),
                            content_type="application/binary")  # fmt: skip

    async def message(request: web.Request) -> web.Response:
        """One Messages API call answered at once (the path without ``--batch``)."""
        params = await request.json()
        rejected = _removed_sampling_error(params, "")
        if rejected is not None:
            return rejected
        return web.json_response(_result("direct", "ok", params, behaviour)["result"]["message"])

    app.router.add_post("/v1/messages", message)
    app.router.add_post("/v1/messages/batches", create)
    app.router.add_get("/v1/messages/batches", listing)
    app.router.add_get("/v1/messages/batches/{batch}", retrieve)
    app.router.add_get("/v1/messages/batches/{batch}/results", results)
