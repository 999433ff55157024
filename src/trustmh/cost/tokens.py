"""Prompt token counts for estimates and caps.

Real tokenisation where the model's tokenizer ships in an installed package: the embedded
SmolLM2 and any local GGUF carry theirs (read with llama.cpp, vocabulary only; ~10 ms per
2,000-character prompt, so beyond the first :data:`EXACT_REQUESTS` requests of a model the
count is extrapolated with the tokens-per-character measured on them, and said so). Everything
else gets a *stated estimate*: characters / 4 plus 4 tokens of chat formatting per message
(tiktoken is installed but downloads its encodings at first use, which fails offline).
For caps, :func:`worst_case_prompt_tokens` bounds the count from above for any byte-level
tokenizer: no token covers less than one byte.
"""

from __future__ import annotations

import atexit
import math
from collections.abc import Sequence
from typing import Any, Literal

CHARS_PER_TOKEN = 4
TOKENS_PER_MESSAGE = 4  # role markers and separators of a chat template
ESTIMATE_METHOD = "estimate: characters/4 + 4 per message"
TOKENIZER_METHOD = "tokenizer (GGUF vocabulary)"
EXACT_REQUESTS = 100

Messages = Sequence[dict[str, Any]]


def _text(message: dict[str, Any]) -> str:
    content = message.get("content", "")
    return content if isinstance(content, str) else str(content)


def estimate_prompt_tokens(messages: Messages) -> int:
    return sum(math.ceil(len(_text(m)) / CHARS_PER_TOKEN) + TOKENS_PER_MESSAGE for m in messages)


def worst_case_prompt_tokens(messages: Messages) -> int:
    return sum(len(_text(m).encode("utf-8")) + 2 * TOKENS_PER_MESSAGE for m in messages)


# Loaded vocabularies by GGUF path (None: SmolLM2), closed at exit: left to their destructor,
# they are freed after llama.cpp's library during interpreter shutdown, which prints a traceback.
_vocabularies: dict[str | None, Any] = {}


def _gguf_vocab(path: str | None) -> Any:
    if path not in _vocabularies:
        _vocabularies[path] = _load_gguf_vocab(path)
    return _vocabularies[path]


@atexit.register
def _close_vocabularies() -> None:
    for vocabulary in _vocabularies.values():
        vocabulary.close()
    _vocabularies.clear()


def _load_gguf_vocab(path: str | None) -> Any:
    from trustmh.models.llama import quiet_llama_logs, smollm2_path
    from trustmh.models.threads import import_llama_cpp

    llama_cpp = import_llama_cpp()
    with quiet_llama_logs():
        return llama_cpp.Llama(model_path=path or str(smollm2_path()), vocab_only=True, verbose=False)


def gguf_path_of(model: str) -> str | None | Literal[False]:
    """The GGUF path of an embedded model (``None`` = SmolLM2), ``False`` for any other."""
    if model == "trustmh/smollm2":
        return None
    if model.startswith("trustmh/gguf/"):
        return model.removeprefix("trustmh/gguf/")
    return False


class TokenCounter:
    """Counts the prompt tokens of one model's requests (see module docstring)."""

    def __init__(self, model: str) -> None:
        path = gguf_path_of(model)
        self._vocab = None
        if path is not False:
            try:
                self._vocab = _gguf_vocab(path)
            except Exception:  # noqa: BLE001 - an unreadable GGUF falls back to the stated estimate
                self._vocab = None
        self._exact = 0  # requests tokenised so far
        self._chars = 0  # and their characters and tokens, for the extrapolation
        self._tokens = 0
        self._extrapolated = False

    @property
    def method(self) -> str:
        if self._vocab is None:
            return ESTIMATE_METHOD
        if self._extrapolated:
            return f"{TOKENIZER_METHOD} on the first {EXACT_REQUESTS} requests, extrapolated per character"
        return TOKENIZER_METHOD

    def count(self, messages: Messages) -> int:
        if self._vocab is None:
            return estimate_prompt_tokens(messages)
        text = "".join(_text(m) for m in messages)
        overhead = TOKENS_PER_MESSAGE * len(messages)
        if self._exact >= EXACT_REQUESTS and self._chars:
            self._extrapolated = True
            return math.ceil(len(text) * self._tokens / self._chars) + overhead
        tokens = len(self._vocab.tokenize(text.encode("utf-8"), add_bos=False, special=False))
        self._exact += 1
        self._chars += len(text)
        self._tokens += tokens
        return tokens + overhead
