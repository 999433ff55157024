"""What the engine is asked (:class:`ChatRequest`) and what it answers (:class:`ChatOutcome`)."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field, replace
from typing import Any

Message = dict[str, str]


@dataclass(frozen=True)
class GenerationParams:
    """Sampling parameters sent with every request; all of them are part of the cache key."""

    max_tokens: int = 512
    temperature: float = 0.7
    top_p: float | None = None
    seed: int | None = 0

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None and not k.startswith("_")}

    def canonical_json(self) -> str:
        """:meth:`as_dict` as canonical JSON, encoded once (one instance serves a whole run)."""
        cached = self.__dict__.get("_canonical_json")
        if cached is None:
            cached = _canonical(self.as_dict())
            object.__setattr__(self, "_canonical_json", cached)
        return cached


@dataclass(frozen=True)
class ChatRequest:
    model: str
    messages: tuple[Message, ...]
    params: GenerationParams = field(default_factory=GenerationParams)
    # Where the model is served (the base URL), set by the engine for OpenAI-compatible models:
    # "openai/chatbot" on two servers is two generators (issue 25). "" = the provider's default.
    endpoint: str = ""

    def cache_key(self) -> str:
        """Hash of (model, endpoint, messages, parameters): equal keys mean an identical call.

        The API key is deliberately not part of it (a secret). Computed once per request (the
        engine and a batch backend both need it; hashing a long prompt is not free).
        """
        cached = self.__dict__.get("_cache_key")
        if cached is not None:
            return cached
        key = self._compute_key()
        object.__setattr__(self, "_cache_key", key)  # frozen: set the memo past __setattr__
        return key

    def messages_json(self) -> str:
        """The messages as canonical JSON (sorted keys, no spaces), encoded once per request: the
        cache key hashes it and a batch upload sends it (a judge prompt is ~6 KB of text)."""
        cached = self.__dict__.get("_messages_json")
        if cached is None:
            messages = list(self.messages)
            plain = all(_plain_ascii(k) and _plain_ascii(v) for m in messages for k, v in m.items())
            cached = _canonical(messages, ascii_escapes=plain)
            object.__setattr__(self, "_messages_json", cached)
        return cached

    def _compute_key(self) -> str:
        # The canonical JSON of {"messages", "model", "params"} (keys in sorted order), built
        # around the messages' JSON instead of encoding them again; the same text, so the same
        # keys, as json.dumps(..., sort_keys=True) of the whole dict (tested).
        canonical = (
            f'{{"messages":{self.messages_json()},"model":{_canonical(self.model)},'
            f'"params":{self.params.canonical_json()}}}'
        )
        if self.endpoint:  # keys of the default endpoint are unchanged (a cache written before still resumes)
            canonical = f'{canonical[:-1]},"endpoint":{_canonical(self.endpoint)}}}'

        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _canonical(value: Any, ascii_escapes: bool = False) -> str:
    """Sorted keys, no spaces, non-ASCII characters as they are. ``ascii_escapes``: the same
    text, faster (json's C encoder escapes ASCII-only text ~2x faster in its ASCII mode), for
    values whose strings are all plain ASCII, where both modes give identical output."""
    return json.dumps(value, sort_keys=True, ensure_ascii=ascii_escapes, separators=(",", ":"))


def _plain_ascii(text: str) -> bool:
    # DEL is the one ASCII character the two modes write differently (escaped in ASCII mode).
    return text.isascii() and "\x7f" not in text


@dataclass(frozen=True)
class Completion:
    """A successful reply as the cache stores it."""

    text: str
    input_tokens: int
    output_tokens: int
    finish_reason: str


@dataclass(frozen=True)
class ChatOutcome:
    """A completion, or the reason there is none after all retries (never both)."""

    completion: Completion | None
    error: str | None = None
    attempts: int = 0
    cached: bool = False

    @property
    def text(self) -> str | None:
        return None if self.completion is None else self.completion.text


def openai_endpoint(base_url: str | None) -> str:
    """The OpenAI-compatible endpoint of a run: ``--base-url``, else ``$OPENAI_BASE_URL``, else "" (OpenAI)."""
    return (base_url or os.environ.get("OPENAI_BASE_URL") or "").rstrip("/")


def at_endpoint(request: ChatRequest, endpoint: str) -> ChatRequest:
    """``request`` as the engine sends and caches it: an ``openai/`` model's bound to its endpoint."""
    if endpoint and not request.endpoint and request.model.startswith("openai/"):
        return replace(request, endpoint=endpoint)
    return request
