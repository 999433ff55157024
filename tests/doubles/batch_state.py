"""What the batch double's two protocols share: one numbering of batches, one fate per request,
the replies, and paging (see :mod:`tests.doubles.batch_double`)."""

from __future__ import annotations

import asyncio
import hashlib
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from aiohttp import web

from tests.doubles.openai_double import default_responder

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
    # replies to (messages with plain-text content) -> text; None: default_responder
    responder: Callable[[list[dict[str, Any]]], str] | None = None


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


def _plain(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Messages with their content as one string (Anthropic sends lists of text blocks)."""
    return [
        {**m, "content": m["content"] if isinstance(m.get("content"), str) else
         "\n".join(b.get("text", "") for b in m.get("content") or [] if isinstance(b, dict))}
        for m in messages
    ]  # fmt: skip


def reply_for(
    messages: list[dict[str, Any]], responder: Callable[[list[dict[str, Any]]], str] | None = None
) -> tuple[str, int, int]:
    """The reply text and its (prompt, completion) token counts, as words."""
    reply = responder(_plain(messages)) if responder is not None else default_responder(messages)
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
