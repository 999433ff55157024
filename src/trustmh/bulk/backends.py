"""Where completions come from: an OpenAI-compatible endpoint or the embedded GGUF model.

Model names on the command line:

* ``openai/NAME`` - model ``NAME`` on the OpenAI-compatible endpoint (``--base-url``);
* ``anthropic/NAME`` - model ``NAME`` on the Anthropic Messages API (``anthropic_backend.py``);
* ``trustmh/smollm2`` - the embedded SmolLM2-135M (offline);
* ``trustmh/gguf/PATH`` - any local GGUF file.

A backend turns every failure into :class:`RetryableError` or :class:`PermanentError`
whose reason is one line with the API key redacted.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # the SDK costs ~0.4 s to import; only calls need it
    import openai

from trustmh.bulk.request import ChatRequest, Completion
from trustmh.bulk.retry import PermanentError, RetryableError, parse_retry_after
from trustmh.bulk.sampling import openai_params
from trustmh.core.errors import UserError

DEFAULT_API_KEY_ENV = "OPENAI_API_KEY"
REMOTE_PROVIDERS = ("openai", "anthropic")
MODEL_SYNTAX = "openai/NAME, anthropic/NAME, trustmh/smollm2 or trustmh/gguf/PATH"


class Backend(Protocol):
    async def complete(self, request: ChatRequest) -> Completion: ...

    async def close(self) -> None: ...


@dataclass(frozen=True)
class ModelSpec:
    """A parsed model name: which backend serves it and what to call it there."""

    spec: str
    provider: str  # "openai", "anthropic" or "embedded"
    name: str  # remote model name, or GGUF path ("" = embedded SmolLM2)

    @property
    def default_column(self) -> str:
        """Output column when none is given: the bare model name (``gpt-4o``, ``smollm2``)."""
        if self.provider in REMOTE_PROVIDERS:
            return self.name
        return Path(self.name).stem if self.name else "smollm2"


def parse_model(spec: str) -> ModelSpec:
    provider, _, rest = spec.partition("/")
    if provider in REMOTE_PROVIDERS and rest:
        return ModelSpec(spec, provider, rest)
    if spec == "trustmh/smollm2":
        return ModelSpec(spec, "embedded", "")
    if spec.startswith("trustmh/gguf/") and len(spec) > len("trustmh/gguf/"):
        return ModelSpec(spec, "embedded", spec[len("trustmh/gguf/") :])
    raise UserError(f"model {spec!r}: unknown model syntax (expected {MODEL_SYNTAX})")


def redact(text: str, secret: str | None) -> str:
    """One line, with the secret (if any) replaced: error reasons end up in written files."""
    line = " ".join(str(text).split())
    if secret:
        line = line.replace(secret, "***")
    return line[:300]


def read_api_key(env_name: str) -> str:
    key = os.environ.get(env_name, "")
    if not key:
        raise UserError(f"environment variable {env_name} is not set (it must hold the API key of the endpoint)")
    return key


class OpenAIBackend:
    """The official SDK over its aiohttp transport, its own retries off (the engine retries)."""

    def __init__(self, base_url: str | None, api_key: str, timeout: float, max_connections: int) -> None:
        import openai

        self._secret = api_key
        self._client = openai.AsyncOpenAI(
            base_url=base_url,
            api_key=api_key,
            max_retries=0,
            timeout=timeout,
            http_client=_aiohttp_client(max_connections, timeout),
        )

    async def complete(self, request: ChatRequest) -> Completion:
        body = {
            "model": request.model.partition("/")[2],
            "messages": list(request.messages),
            **openai_params(request.model.partition("/")[2], request.params),
        }
        return completion_from_body(await sdk_post(self._client, "/chat/completions", body, self._secret))

    async def close(self) -> None:
        await self._client.close()


async def sdk_post(client: Any, path: str, body: dict[str, Any], secret: str) -> Any:
    """POST ``body`` with an official SDK client (openai or anthropic) and return the JSON reply,
    every failure mapped to :class:`RetryableError` / :class:`PermanentError`.

    The SDK's generic POST (auth, base URL, headers, error classes) returning the raw response:
    the typed ``create`` methods walk every message through their TypedDict transforms and
    build pydantic models, ~0.5 ms of CPU per call that we do not need on the hot path (1,000
    calls/s on 2 cores). We only read the JSON body. Both SDKs share the error classes' names.
    """
    sdk = sys.modules[type(client).__module__.split(".", 1)[0]]
    try:
        content = await client.post(path, body=body, cast_to=bytes)
        return json.loads(content)
    except sdk.APIStatusError as error:
        status = error.status_code
        reason = redact(f"HTTP {status}: {error.message}", secret)
        if status == 429 or status >= 500 or status == 408:
            retry_after = parse_retry_after(error.response.headers.get("retry-after"))
            raise RetryableError(reason, retry_after, answered=True) from None
        raise PermanentError(reason) from None
    except sdk.APITimeoutError:
        raise RetryableError("timeout") from None
    except sdk.APIConnectionError as error:
        raise RetryableError(redact(f"connection error: {error}", secret)) from None
    except (ValueError, UnicodeDecodeError) as error:  # json.JSONDecodeError is a ValueError
        raise RetryableError(redact(f"malformed response body: {error}", secret)) from None
    except Exception as error:  # noqa: BLE001 - one odd transport error must not end a 400k-call run
        raise RetryableError(redact(f"unexpected {type(error).__name__}: {error}", secret)) from None


def _aiohttp_client(max_connections: int, timeout: float) -> openai.DefaultAioHttpClient:
    """The SDK's aiohttp client with a connection pool as large as our concurrency."""
    import openai

    # The SDK's own Limits class: openai 2.x builds on httpx, 3.x on httpx2.
    limits_class = type(openai.DEFAULT_CONNECTION_LIMITS)
    limits = limits_class(max_connections=max_connections, max_keepalive_connections=max_connections)
    return openai.DefaultAioHttpClient(timeout=timeout, limits=limits)


def completion_from_body(body: Any) -> Completion:
    try:
        choice = body["choices"][0]
        message = choice["message"]
        usage = body.get("usage") or {}
        finish_reason = str(choice.get("finish_reason") or "stop")
        input_tokens = int(usage.get("prompt_tokens") or 0)
        output_tokens = int(usage.get("completion_tokens") or 0)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
        raise RetryableError(f"malformed response body: no usable choices[0].message ({error!r})") from None
    text = message.get("content") if isinstance(message, dict) else None
    if not isinstance(text, str):
        # A well-formed reply without text (e.g. a content filter) will not change on retry.
        raise PermanentError(f"reply has no text (finish_reason={finish_reason})")
    return Completion(text, input_tokens, output_tokens, finish_reason)


class EmbeddedBackend:
    """The in-process GGUF model; calls run one at a time on the model's own worker thread
    (llama.cpp blocks; a new thread per call, as ``asyncio.to_thread`` gives, halves its
    token rate: see :class:`trustmh.models.llama.EmbeddedLlama`)."""

    def __init__(self, gguf_path: str) -> None:
        from trustmh.models.llama import shared_llama

        self._model = shared_llama(gguf_path or None)

    async def complete(self, request: ChatRequest) -> Completion:
        params = request.params
        try:
            result = await self._model.achat(
                list(request.messages), params.max_tokens, params.temperature, top_p=params.top_p, seed=params.seed
            )
        except (ValueError, RuntimeError) as error:  # e.g. prompt longer than the context
            raise PermanentError(redact(f"embedded model: {error}", None)) from None
        return Completion(result.text, result.input_tokens, result.output_tokens, result.finish_reason)

    async def close(self) -> None:
        return None


@dataclass(frozen=True)
class EndpointSettings:
    base_url: str | None
    api_key_env: str
    timeout: float
    max_connections: int
    # More base URLs serving the same models (replicas; see replicas.py), and the caps of
    # limits.py on the remote provider (None: no cap).
    replica_urls: tuple[str, ...] = ()
    provider_connections: int | None = None
    rpm: int | None = None
    tpm: int | None = None
    # --batch SIZE: the provider's batch API (batch_backend.py), its records kept in batch_store.
    batch_size: int | None = None
    batch_poll: float = 30.0
    batch_store: Path | None = None
