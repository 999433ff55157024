"""The OpenAI Batch API behind :class:`trustmh.bulk.batch_backend.BatchApi` (official ``openai`` SDK).

A batch is a JSONL file uploaded with ``purpose="batch"`` (one ``/v1/chat/completions`` body
per line, ``custom_id`` = cache key), then ``batches.create`` with the intent's id in the
batch's ``metadata`` — which is how :meth:`OpenAIBatchApi.find` recognises a batch whose
acceptance was never recorded. Results are the lines of the output and error files.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from trustmh.bulk.backends import completion_from_body, redact
from trustmh.bulk.batch_backend import CLOCK_SKEW_SECONDS, BatchState, ItemResult, jsonl_records
from trustmh.bulk.request import ChatRequest
from trustmh.bulk.retry import PermanentError, RetryableError
from trustmh.bulk.sampling import openai_params_json

FINAL_STATUSES = ("completed", "expired", "failed", "cancelled")
INTENT_METADATA = "trustmh_intent"


def _batch_line(key: str, request: ChatRequest) -> str:
    """One JSONL line of the batch input: ``{"custom_id", "method", "url", "body"}``, the body's
    messages being the request's canonical JSON, already encoded for its cache key."""
    name = request.model.partition("/")[2]
    params = openai_params_json(name, request.params)[1:-1]
    model = json.dumps(name, ensure_ascii=False)
    return (
        f'{{"custom_id":{json.dumps(key)},"method":"POST","url":"/v1/chat/completions",'
        f'"body":{{"model":{model},"messages":{request.messages_json()}{"," + params if params else ""}}}}}'
    )


class OpenAIBatchApi:
    def __init__(self, base_url: str | None, api_key: str) -> None:
        import openai

        self.secret = api_key
        self.provider = "openai"
        self.client = openai.AsyncOpenAI(base_url=base_url, api_key=api_key, max_retries=3, timeout=300.0)

    async def create(self, intent: str, requests: Sequence[tuple[str, ChatRequest]]) -> str:
        lines = [_batch_line(key, request) for key, request in requests]
        upload = await self.client.files.create(
            file=(f"trustmh-{intent}.jsonl", ("\n".join(lines) + "\n").encode("utf-8")), purpose="batch"
        )
        # No SDK retry of the create: an answer lost after the provider accepted the batch would
        # create it twice. A failed create leaves the intent, which the backend resolves by asking.
        created = await self.client.with_options(max_retries=0).batches.create(
            input_file_id=upload.id,
            endpoint="/v1/chat/completions",
            completion_window="24h",
            metadata={INTENT_METADATA: intent},
        )
        return str(created.id)

    async def retrieve(self, batch_id: str) -> BatchState:
        batch = await self.client.batches.retrieve(batch_id)
        return BatchState(batch.status in FINAL_STATUSES, str(batch.status), batch)

    async def _lines(self, file_id: str | None) -> list[dict[str, Any]]:
        if not file_id:
            return []
        content = await self.client.files.content(file_id)
        return jsonl_records(content.content)

    async def results(self, batch_id: str, state: BatchState) -> dict[str, ItemResult]:
        batch = state.handle
        lines = await self._lines(batch.output_file_id) + await self._lines(batch.error_file_id)
        return {str(line.get("custom_id")): self._result(line) for line in lines}

    def _result(self, line: dict[str, Any]) -> ItemResult:
        response = line.get("response") or {}
        status = response.get("status_code")
        body = response.get("body") or {}
        if status == 200:
            try:
                return completion_from_body(body)
            except (RetryableError, PermanentError) as error:
                return error
        failure = (body.get("error") if isinstance(body, dict) else None) or line.get("error") or {}
        code = failure.get("code") or failure.get("type") or status or "unknown"
        reason = redact(f"batch item failed: {code}: {failure.get('message', '')}", self.secret)
        permanent = isinstance(status, int) and 400 <= status < 500 and status not in (408, 409, 429)
        return PermanentError(reason) if permanent else RetryableError(reason, answered=isinstance(status, int))

    async def find(self, intent: str, count: int, since: float, known: Callable[[str], bool]) -> str | None:
        # Newest first; the intent's id in the metadata identifies the batch exactly.
        async for batch in self.client.batches.list(limit=100):
            if batch.created_at < since - CLOCK_SKEW_SECONDS:
                return None
            if (batch.metadata or {}).get(INTENT_METADATA) == intent:
                return str(batch.id)
        return None

    async def close(self) -> None:
        await self.client.close()
