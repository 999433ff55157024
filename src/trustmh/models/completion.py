"""A greedy chat call of the embedded model, token by token, as llama-cpp-python decodes it.

The batch decoder (:mod:`trustmh.models.batching`) decodes calls itself instead of through
``Llama.create_chat_completion``; what that call does around the model is reproduced here, so
that its answers are the one-at-a-time path's: the prompt tokens built from the GGUF's chat
template (:func:`plan_call`, as ``chat_formatter_to_chat_completion_handler`` builds them), the
token budget (:func:`effective_max_tokens`) and the per-token loop of ``Llama._create_completion``
(:class:`Completion`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

# Tokens kept free beyond max_tokens: an answer may run on past it to finish a UTF-8 character.
CONTEXT_MARGIN = 8


def effective_max_tokens(max_tokens: int | None, prompt_tokens: int, n_ctx: int) -> int:
    """``max_tokens`` as llama-cpp-python applies it: unlimited (None or <= 0) and too large both
    become what is left of the context."""
    if max_tokens is None or max_tokens <= 0:
        max_tokens = n_ctx - prompt_tokens
    return max_tokens if max_tokens + prompt_tokens < n_ctx else n_ctx - prompt_tokens


@dataclass(frozen=True)
class Plan:
    """What a greedy chat call decodes: its prompt tokens exactly as llama-cpp-python builds them,
    its token budget and its stop strings (the request's, then the chat template's)."""

    prompt: tuple[int, ...]
    max_tokens: int
    stops: tuple[bytes, ...]


def plan_call(llama: Any, formatter: Any, messages: list[dict[str, str]], max_tokens: int, stop: Sequence[str]) -> Plan:
    """The :class:`Plan` of a chat call through the GGUF's template (``reuse.chat_formatter``),
    as ``chat_formatter_to_chat_completion_handler`` and ``_create_completion`` prepare it."""
    formatted = formatter(messages=messages)
    prompt = llama.tokenize(formatted.prompt.encode("utf-8"), add_bos=not formatted.added_special, special=True)
    template_stops = formatted.stop if isinstance(formatted.stop, list) else [formatted.stop] if formatted.stop else []
    stops = [*stop, *template_stops]
    return Plan(
        tuple(prompt), effective_max_tokens(max_tokens, len(prompt), llama.n_ctx()), tuple(s.encode() for s in stops)
    )


def fits(plan: Plan, capacity: int) -> bool:
    """Whether ``plan``'s prompt and answer fit a sequence of ``capacity`` tokens."""
    return len(plan.prompt) + plan.max_tokens + CONTEXT_MARGIN <= capacity


@dataclass
class Completion:
    """One sequence's answer, token by token, as ``Llama._create_completion`` builds it (not
    streaming, no logprobs): :meth:`feed` each sampled token until it returns True."""

    plan: Plan
    tokens: list[int] = field(default_factory=list)
    text: bytes = b""
    finish_reason: str = "length"
    held: int = 0  # tokens still to wait for an incomplete UTF-8 character

    def feed(self, token: int, llama: Any, is_eog: Any) -> bool:
        prompt = list(self.plan.prompt)
        if is_eog(llama._model.vocab, token):
            self.text = llama.detokenize(self.tokens, prev_tokens=prompt)
            self.finish_reason = "stop"
            return True
        self.tokens.append(token)
        text = llama.detokenize(self.tokens, prev_tokens=prompt)
        # llama-cpp-python's check for a multi-byte character cut off, as it is written there.
        for k, char in enumerate(text[-3:]):
            k = 3 - k
            for num, pattern in [(2, 192), (3, 224), (4, 240)]:
                if num > k and pattern & char == pattern:
                    self.held = num - k
        if self.held > 0:
            self.held -= 1
            return False
        stops = [stop for stop in self.plan.stops if stop in text]
        if stops:
            self.text = text[: text.index(stops[0])]
            self.finish_reason = "stop"
            return True
        if len(self.tokens) >= self.plan.max_tokens:
            self.text = text
            self.finish_reason = "length"
            return True
        return False
