"""``anthropic/NAME`` in the bulk engine: the Messages API through the official ``anthropic`` SDK.

Our requests are OpenAI-shaped (a list of role/content messages); the Messages API takes the
system prompt apart (``system``) and has no ``seed``: system messages are joined into
``system`` and the seed is not sent (Anthropic sampling cannot be seeded; it stays in the
cache key all the same). Nor are ``temperature`` and ``top_p``: API version 2026-10-21, which
the ``anthropic`` SDK 2.x we require sends on every request, answers 400 to any of
``temperature``/``top_p``/``top_k``, even at their default values, on the Messages API and in
Message Batches alike. Claude then samples at its own setting, so a judge asked for
temperature 0 is not deterministic there (:func:`trustmh.bulk.sampling.unsent_sampling_notice`
says so to the user; the requested values stay in the cache key, so a rerun reuses the first
answer). The key is read from ``$ANTHROPIC_API_KEY``, the endpoint from ``$ANTHROPIC_BASE_URL`` (the SDK's own
variables; default https://api.anthropic.com).
"""

from __future__ import annotations

from typing import Any

from trustmh.bulk.backends import sdk_post
from trustmh.bulk.request import ChatRequest, Completion
from trustmh.bulk.retry import PermanentError, RetryableError

API_KEY_ENV = "ANTHROPIC_API_KEY"
# Anthropic's stop reasons in the OpenAI words the rest of trustmh reads.
_FINISH = {"end_turn": "stop", "stop_sequence": "stop", "max_tokens": "length", "refusal": "content_filter"}


def anthropic_client(api_key: str, timeout: float, max_retries: int) -> Any:
    import anthropic

    return anthropic.AsyncAnthropic(api_key=api_key, timeout=timeout, max_retries=max_retries)


def message_params(request: ChatRequest) -> dict[str, Any]:
    """The Messages API body of ``request``."""
    system = "\n\n".join(m["content"] for m in request.messages if m["role"] == "system")
    params: dict[str, Any] = {
        "model": request.model.partition("/")[2],
        "max_tokens": request.params.max_tokens,
        "messages": [{"role": m["role"], "content": m["content"]} for m in request.messages if m["role"] != "system"],
    }
    if system:
        params["system"] = system
    return params


def completion_from_message(body: Any) -> Completion:
    """A Messages API reply (a ``message`` object) as a :class:`Completion`."""
    try:
        blocks = body["content"]
        usage = body.get("usage") or {}
        finish_reason = _FINISH.get(str(body.get("stop_reason")), str(body.get("stop_reason") or "stop"))
        input_tokens = int(usage.get("input_tokens") or 0)
        output_tokens = int(usage.get("output_tokens") or 0)
        texts = [block["text"] for block in blocks if isinstance(block, dict) and block.get("type") == "text"]
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise RetryableError(f"malformed response body: no usable content ({error!r})") from None
    if not texts:
        raise PermanentError(f"reply has no text (finish_reason={finish_reason})")
    return Completion("".join(texts), input_tokens, output_tokens, finish_reason)


class AnthropicBackend:
    """One call per request (no ``--batch``); the engine retries, the SDK does not."""

    def __init__(self, api_key: str, timeout: float) -> None:
        self._secret = api_key
        self._client = anthropic_client(api_key, timeout, max_retries=0)

    async def complete(self, request: ChatRequest) -> Completion:
        return completion_from_message(
            await sdk_post(self._client, "/v1/messages", message_params(request), self._secret)
        )

    async def close(self) -> None:
        await self._client.close()
