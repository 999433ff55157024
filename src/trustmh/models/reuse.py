"""What the embedded model reuses within a run instead of computing it again.

Two things, both per process (a ``trustmh run`` or an ``inspect eval``), both off when
``$TRUSTMH_LLAMA_CACHE_MB`` is 0:

* **KV states of recent prompts.** llama.cpp keeps only the last sequence's KV cache, but
  the tasks of a run interleave on the one model, so consecutive calls rarely share a prefix.
  After each call the model's state (its KV cache for prompt + answer) is kept in a
  least-recently-used store capped at ``$TRUSTMH_LLAMA_CACHE_MB`` megabytes (default
  :data:`DEFAULT_CACHE_MB`). llama-cpp-python looks a new prompt up there
  (``Llama._create_completion``: the stored state with the longest common token prefix, if
  longer than what the live context shares), restores it and prefills only the rest. When the
  cap is reached, states superseded by a newer one (sharing at least half of their tokens
  with it) go first, so the store keeps one state per shared prefix rather than one per call.
* **Answers to identical requests** (same messages, token limit, temperature, top-p, seed
  and stop sequences) when decoding is deterministic (temperature 0, or a fixed seed): the
  first answer is returned again, e.g. a robustness task's clean pass gets the base task's.

Each call reports how many of its prompt tokens were *not* prefilled, so usage can say
``input_tokens_cache_read`` honestly (see :mod:`trustmh.models.providers`).
"""

from __future__ import annotations

import ctypes
import json
import os
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypedDict, Unpack

from trustmh.core.errors import UserError

# 512 MB ≈ 23,000 tokens of SmolLM2 state (23 KB per token): a default run then keeps nearly every shared
# prefix it will use again (stand-in: 24,525 tokens prefilled against 25,224 at 256 MB; docs/performance.md).
# A process holding the model and 355 MB of states measured 688 MB RSS.
DEFAULT_CACHE_MB = 512
# Answers are a few hundred bytes each; the cap only guards against unbounded growth in a long process.
MAX_ANSWERS = 20_000


def cache_megabytes() -> int:
    """``$TRUSTMH_LLAMA_CACHE_MB`` (0 turns all reuse off) or :data:`DEFAULT_CACHE_MB`."""
    value = os.environ.get("TRUSTMH_LLAMA_CACHE_MB", "").strip()
    if not value:
        return DEFAULT_CACHE_MB
    try:
        megabytes = int(value)
    except ValueError:
        raise UserError(f"TRUSTMH_LLAMA_CACHE_MB must be a whole number of megabytes, not {value!r}") from None
    if megabytes < 0:
        raise UserError(f"TRUSTMH_LLAMA_CACHE_MB must be 0 (off) or more, not {megabytes}")
    return megabytes


def counting_llama_class() -> type:
    """A ``llama_cpp.Llama`` that records what it prefills and keeps lean states.

    * ``eval`` calls are recorded: the first one of a completion is the part of the prompt
      that was really prefilled (after reusing the live or a restored KV prefix).
    * ``save_state``/``load_state`` keep sequence 0's KV cells only (llama.cpp's per-sequence
      state) and leave out the logits matrix. llama-cpp-python copies
      ``n_batch × n_vocab`` floats (~100 MB for SmolLM2) into every state although, without
      ``logits_all``, sampling never reads it: a restored state always decodes at least one
      token before sampling (``_requires_eval``).
    """
    import numpy as np

    from trustmh.models.threads import import_llama_cpp

    llama_cpp = import_llama_cpp()  # before anything else loads it: see trustmh.models.threads
    from llama_cpp import Llama, LlamaState

    class CountingLlama(Llama):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            self.eval_sizes: list[int] = []
            # Leading tokens of the live context whose KV cells a prompt's prefill computed.
            self.prompt_end = 0
            self._prefilling = False
            super().__init__(*args, **kwargs)
            if self._logits_all:
                raise ValueError("lean states need logits_all=False")

        def eval(self, tokens: Any) -> None:
            self.eval_sizes.append(len(tokens))
            super().eval(tokens)
            if self._prefilling:  # the first eval of a completion is its prompt (or what is left of it)
                self._prefilling = False
                self.prompt_end = self.n_tokens

        def generate(self, tokens: Any, *args: Any, **kwargs: Any) -> Any:
            self.forget_answer()
            self._prefilling = True
            return (yield from super().generate(tokens, *args, **kwargs))

        def forget_answer(self) -> None:
            """Keep only the KV cells the last prompt's prefill computed.

            An answer's cells were computed one token at a time while decoding; the same tokens in
            a later prompt (a conversation's next turn) are prefilled together when that prompt is
            answered fresh, and llama.cpp's arithmetic differs slightly between the two, enough to
            turn a greedy answer at a near-tie. Reusing only prefilled cells keeps every answer the
            one it would be in a fresh process (benchmarks/reuse_identity_bench.py)."""
            if self.n_tokens > self.prompt_end:
                self._ctx.kv_cache_seq_rm(-1, self.prompt_end, -1)
                self.n_tokens = self.prompt_end
                self._requires_eval = True  # the live logits are the answer's, not the prompt's

        def save_state(self) -> LlamaState:
            # The KV cells of sequence 0 (the only one here) in llama.cpp's per-sequence format,
            # which the batch decoder can also restore into one of its sequences
            # (trustmh.models.batching); without logits, as explained above; the prompt's cells
            # only (forget_answer).
            self.forget_answer()
            size = llama_cpp.llama_state_seq_get_size(self._ctx.ctx, 0)
            buffer = (ctypes.c_uint8 * int(size))()
            written = int(llama_cpp.llama_state_seq_get_data(self._ctx.ctx, buffer, size, 0))
            if written > int(size):
                raise RuntimeError("failed to copy the llama state")
            return LlamaState(
                input_ids=self.input_ids[: self.n_tokens].copy(),
                scores=np.empty((0, self._n_vocab), dtype=np.single),
                n_tokens=self.n_tokens,
                llama_state=ctypes.string_at(buffer, written),
                llama_state_size=written,
                seed=self._seed,
            )

        def load_state(self, state: LlamaState) -> None:
            self.input_ids[: state.n_tokens] = state.input_ids[: state.n_tokens]
            self.n_tokens = self.prompt_end = state.n_tokens  # a stored state holds prompt cells only
            self._requires_eval = True
            self._seed = state.seed
            buffer = (ctypes.c_uint8 * state.llama_state_size).from_buffer_copy(state.llama_state)
            if (
                llama_cpp.llama_state_seq_set_data(self._ctx.ctx, buffer, state.llama_state_size, 0)
                != state.llama_state_size
            ):
                raise RuntimeError("failed to restore the llama state")

    return CountingLlama


def chat_formatter(llama: Any) -> Any | None:
    """The formatter llama-cpp-python applies to a chat request when the GGUF carries its own
    chat template (``chat_format == "chat_template.default"``), built the same way as in
    ``Llama.__init__``, so prompt tokens can be counted before the call; None otherwise."""
    template = llama.metadata.get("tokenizer.chat_template")
    if llama.chat_handler is not None or llama.chat_format != "chat_template.default" or not template:
        return None
    from llama_cpp.llama_chat_format import Jinja2ChatFormatter

    def token_text(token: int) -> str:
        return llama._model.token_get_text(token) if token != -1 else ""

    eos, bos = llama.token_eos(), llama.token_bos()
    return Jinja2ChatFormatter(
        template=template, eos_token=token_text(eos), bos_token=token_text(bos), stop_token_ids=[eos]
    )


def templated_tokens(llama: Any, formatter: Any, messages: list[dict[str, str]]) -> list[int]:
    """A chat request's prompt tokens exactly as llama-cpp-python builds them: ``formatter``
    (:func:`chat_formatter`) applies the GGUF's template, ``llama`` (a model or a vocabulary-only
    ``Llama``) tokenizes with special tokens parsed, adding BOS only when the template did not."""
    formatted = formatter(messages=messages)
    return list(llama.tokenize(formatted.prompt.encode(), add_bos=not formatted.added_special, special=True))


def superseded(stored: Sequence[int], new: Sequence[int]) -> bool:
    """Whether a stored state is worth little once ``new`` is stored: they share at least half of
    the stored one's tokens (a conversation's earlier turn, another item after the same
    instructions, another variant of the same dialogue), so ``new`` serves most prompts it would.

    Dropping such states first when the store is full keeps it to about one state per shared
    prefix instead of one per call: it then holds the prefixes of many more tasks at once."""
    import numpy as np

    from trustmh.models.scheduling import common_prefix

    if len(stored) == 0:
        return True
    return 2 * common_prefix(np.asarray(stored), np.asarray(new)) >= len(stored)


def state_cache(megabytes: int) -> Any:
    """llama-cpp-python's RAM cache (LRU by bytes of llama state) with a smarter eviction order
    (:class:`PrunedRAMCache`), or None when off."""
    if megabytes <= 0:
        return None
    from llama_cpp import LlamaRAMCache

    class PrunedRAMCache(LlamaRAMCache):
        """Stored states, dropped in this order of preference:

        * at once, a state that is a prefix of the new one (a conversation's earlier turn): the
          new state serves every prompt it would serve, and more;
        * when the cap is reached, first the least recently used state :func:`superseded` by a
          newer one and not restored since (another item after the same instructions: the newer
          state serves the instructions), then the least recently used of all.

        Superseded states are kept while there is room (until the third wave of issue 17 they
        were dropped at once): a later prompt may still continue one of them further than the
        newer state.
        """

        def __init__(self, capacity_bytes: int) -> None:
            super().__init__(capacity_bytes=capacity_bytes)
            self.superseded_keys: set[tuple[int, ...]] = set()

        def __getitem__(self, key: Sequence[int]) -> Any:
            value = super().__getitem__(key)
            # The best match was just moved to the end; it proved useful, so it is kept like a new one.
            self.superseded_keys.discard(next(reversed(self.cache_state)))
            return value

        def __setitem__(self, key: Sequence[int], value: Any) -> None:
            # llama-cpp-python keys a state by the call's prompt and answer; it holds the prompt's
            # cells only (CountingLlama.forget_answer), so it is kept under those tokens.
            new = tuple(key[: value.n_tokens]) if hasattr(value, "n_tokens") else tuple(key)
            self.cache_state.pop(new, None)
            for stored in list(self.cache_state):
                if stored == new[: len(stored)]:
                    del self.cache_state[stored]
                elif superseded(stored, new):
                    self.superseded_keys.add(stored)
            self.cache_state[new] = value
            self.superseded_keys.discard(new)
            while self.cache_size > self.capacity_bytes and self.cache_state:
                victim = next((stored for stored in self.cache_state if stored in self.superseded_keys), None)
                if victim is None:
                    victim = next(iter(self.cache_state))
                del self.cache_state[victim]
            self.superseded_keys &= self.cache_state.keys()

    return PrunedRAMCache(capacity_bytes=megabytes * 1024 * 1024)


class Sampling(TypedDict, total=False):
    """A request's optional settings (``None``: the model's default)."""

    top_p: float | None
    seed: int | None
    stop: list[str] | None


@dataclass(frozen=True)
class Request:
    """Everything that decides a completion's text."""

    messages: tuple[tuple[str, str], ...]
    max_tokens: int
    temperature: float
    top_p: float | None
    seed: int | None
    stop: tuple[str, ...]

    @classmethod
    def of(
        cls, messages: list[dict[str, str]], max_tokens: int, temperature: float, **sampling: Unpack[Sampling]
    ) -> Request:
        return cls(
            tuple((m["role"], m["content"]) for m in messages),
            max_tokens,
            temperature,
            sampling.get("top_p"),
            sampling.get("seed"),
            tuple(sampling.get("stop") or ()),
        )

    def message_dicts(self) -> list[dict[str, str]]:
        return [{"role": role, "content": content} for role, content in self.messages]

    @property
    def deterministic(self) -> bool:
        return self.temperature == 0 or self.seed is not None

    def key(self) -> str:
        return json.dumps(
            [self.messages, self.max_tokens, self.temperature, self.top_p, self.seed, self.stop], ensure_ascii=False
        )


class AnswerCache:
    """Answers of deterministic requests, least recently used dropped beyond ``capacity``."""

    def __init__(self, capacity: int = MAX_ANSWERS) -> None:
        self.capacity = capacity
        self._answers: OrderedDict[str, Any] = OrderedDict()

    def __contains__(self, request: object) -> bool:
        """Whether :meth:`get` would return an answer (without marking it as used)."""
        return isinstance(request, Request) and request.deterministic and request.key() in self._answers

    def get(self, request: Request) -> Any | None:
        if not request.deterministic:
            return None
        key = request.key()
        answer = self._answers.get(key)
        if answer is not None:
            self._answers.move_to_end(key)
        return answer

    def put(self, request: Request, answer: Any) -> None:
        if not request.deterministic or self.capacity <= 0:
            return
        key = request.key()
        self._answers[key] = answer
        self._answers.move_to_end(key)
        while len(self._answers) > self.capacity:
            self._answers.popitem(last=False)
