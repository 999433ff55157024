"""What the engine is asked (:class:`ChatRequest`) and what it answers (:class:`ChatOutcome`)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
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
        return {k: v for k, v in self.__dict__.items() if v is not None}


@dataclass(frozen=True)
class ChatRequest:
    model: str
    messages: tuple[Message, ...]
    params: GenerationParams = field(default_factory=GenerationParams)

    def cache_key(self) -> str:
        """Hash of (model, messages, parameters): equal keys mean an identical call.

        The endpoint and the API key are deliberately not part of it: the key is a secret
        and the model name is what identifies the generator. Computed once per request (the
        engine and a batch backend both need it; hashing a long prompt is not free).
        """
        cached = self.__dict__.get("_cache_key")
        if cached is not None:
            return cached
        key = self._compute_key()
        object.__setattr__(self, "_cache_key", key)  # frozen: set the memo past __setattr__
        return key

    def _compute_key(self) -> str:
        canonical = json.dumps(
            {"model": self.model, "messages": list(self.messages), "params": self.params.as_dict()},
            sort_keys=True,
            ensure_ascii=False,
            separators=(",", ":"),
        )
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


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
