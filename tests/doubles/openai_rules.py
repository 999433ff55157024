"""What OpenAI refuses in a request, as the doubles answer it (HTTP 400), kept apart from the
double's server (:mod:`tests.doubles.openai_double`) so the batch double shares it."""

from __future__ import annotations

from typing import Any

# Names the double treats as OpenAI reasoning models, listed here rather than taken from
# trustmh.bulk.sampling, so a wrong detection there fails the tests instead of agreeing with them.
REASONING_MODEL_PREFIXES = ("o1", "o3", "o4", "gpt-5", "gpt-6")


def unsupported_parameter(body: dict[str, Any]) -> dict[str, Any] | None:
    """The error (HTTP 400) OpenAI answers to a reasoning model's request with ``max_tokens``
    (it takes ``max_completion_tokens``), ``temperature`` or ``top_p``; None when accepted."""
    if not str(body.get("model", "")).startswith(REASONING_MODEL_PREFIXES):
        return None
    name = next((name for name in ("max_tokens", "temperature", "top_p") if name in body), None)
    if name is None:
        return None
    message = f"Unsupported parameter: '{name}' is not supported with this model."
    return {"message": message, "type": "invalid_request_error", "param": name, "code": "unsupported_parameter"}
