"""Batched decoding: greedy calls waiting together are decoded together, one llama.cpp step for all.

One generated token costs the embedded model a pass over all its weights; a step that carries one
token for each of several sequences reads them once. So the calls waiting on the model that
decode greedily (temperature 0) are decoded together by :class:`BatchDecoder`, each as its own
sequence in a second llama.cpp context on the same loaded model, and a call that arrives while
others decode joins them at the next step (a conversation's next turn, another sample).

The outputs are those of the one-at-a-time path (``Llama.create_chat_completion``), token for
token (tests/models/test_batching.py):

* **Same logits.** The context keeps one KV stream per sequence (``kv_unified`` off): each
  sequence's cells sit at the positions they would hold alone, so attention sums the same
  numbers in the same order; the other sequences' tokens only add rows to the matrix products,
  which are computed row by row.
* **Same sampler.** Each sequence gets the chain llama-cpp-python builds for the call
  (``Llama._init_sampler``: repeat penalty over its last 64 tokens, then greedy), fed only its
  own tokens.
* **Same stopping.** :class:`~trustmh.models.completion.Completion` is llama-cpp-python's
  per-token loop (``Llama._create_completion``): end-of-generation tokens, the hold on an incomplete UTF-8
  character, stop strings (the request's, then the chat template's), ``max_tokens`` cut to the
  model's context.

The prefix reuse of :mod:`trustmh.models.reuse` is kept: a sequence starts from the stored KV
state (or the KV a sequence slot still holds) sharing its longest prefix, and its state is
stored after its prompt (for the calls beside it sharing the prefix). Only prompt cells are ever
reused: an answer's cells, decoded one token at a time, are dropped when it finishes.
States are kept in llama.cpp's per-sequence format, converted between the one-stream model
context and the batch context by :func:`restream`.

Calls that cannot be batched are served one at a time as before: sampled calls (temperature
above 0), calls whose prompt and answer do not fit a sequence's share of the batch context
(:data:`SEQUENCE_CONTEXT`), models without a chat template in their GGUF, or every call when
``$TRUSTMH_LLAMA_BATCH`` is 0 or 1 (it sets how many sequences decode together; default
:data:`DEFAULT_SEQUENCES`).
"""

from __future__ import annotations

import ctypes
import os
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from trustmh.core.errors import UserError
from trustmh.models.completion import Completion, Plan, fits
from trustmh.models.scheduling import common_prefix
from trustmh.models.threads import import_llama_cpp

# Sequences decoded together by default (measured: benchmarks/embedded_bench.py --compare-batch).
DEFAULT_SEQUENCES = 4
# KV cells per sequence in the batch context (prompt + answer): with 4 sequences the same
# 8,192 cells (~190 MB) as the model's own context. Longer calls are served one at a time.
SEQUENCE_CONTEXT = 2048
# Small models loop without it; 1.1 is llama.cpp's usual default. Both paths use it.
REPEAT_PENALTY = 1.1
# A stored state is restored for at least this many shared tokens; below, prefilling them is
# cheaper than copying the state (23 KB per token of the whole state, not of the shared part).
MIN_RESTORE = 32

_U32 = struct.Struct("<I")
# Bytes of a sequence state before its cells (format tag, sequence id, stream count): see restream.
_HEADER = 12


def batch_sequences() -> int:
    """``$TRUSTMH_LLAMA_BATCH``: how many greedy calls decode together (0 or 1: one at a time)."""
    value = os.environ.get("TRUSTMH_LLAMA_BATCH", "").strip()
    if not value:
        return DEFAULT_SEQUENCES
    try:
        sequences = int(value)
    except ValueError:
        raise UserError(f"TRUSTMH_LLAMA_BATCH must be a whole number of sequences (0: off), not {value!r}") from None
    if sequences < 0:
        raise UserError(f"TRUSTMH_LLAMA_BATCH must be 0 (off) or more, not {sequences}")
    return sequences


def restream(state: bytes, streams: int, to_streams: int, stream: int) -> bytes:
    """One sequence's KV state (``llama_state_seq_get_data``) re-addressed from a context with
    ``streams`` KV streams to one with ``to_streams``: the sequence's cells move from stream
    ``stream`` to stream 0 or back. The format (llama-cpp-python 0.3.36's llama.cpp): a format
    tag, the sequence's id and the stream count (4 bytes each), then per stream its cell count
    (0 for an empty stream, with nothing after it) and its cells; a one-sequence state has one
    non-empty stream. Raises ValueError on anything else."""
    (count,) = _U32.unpack_from(state, _HEADER - 4)
    if count != streams:
        raise ValueError(f"state has {count} KV streams, expected {streams}")
    source = stream if streams > 1 else 0
    head, tail = _HEADER + 4 * source, 4 * (streams - 1 - source)
    empty = state[_HEADER:head] + state[len(state) - tail :]
    if len(state) < head + tail + 4 or empty.count(0) != len(empty):
        raise ValueError("state holds cells in more than one KV stream")
    cells = state[head : len(state) - tail]
    target = stream if to_streams > 1 else 0
    padding = bytes(4 * (to_streams - 1 - target))
    return state[:4] + _U32.pack(target) + _U32.pack(to_streams) + bytes(4 * target) + cells + padding


@dataclass
class Decoded:
    """A finished sequence: its caller's handle and what the one-at-a-time path would report."""

    owner: Any
    text: str
    input_tokens: int
    output_tokens: int
    finish_reason: str
    cached_input_tokens: int


@dataclass
class _Sequence:
    slot: int
    owner: Any
    completion: Completion
    sampler: Any
    kv: list[int]  # tokens whose KV the slot holds
    next_token: int
    reused: int


class Overflow(RuntimeError):
    """A sequence outgrew its share of the batch context (its caller serves it one at a time)."""

    def __init__(self, owner: Any) -> None:
        super().__init__("sequence outgrew the batch context")
        self.owner = owner


class BatchDecoder:
    """A llama.cpp context with one KV stream per sequence on ``llama``'s model (see module docstring).
    Not thread-safe: the embedded model's worker calls it under the model's lock."""

    def __init__(self, llama: Any, sequences: int, per_sequence: int = SEQUENCE_CONTEXT) -> None:
        self._lib = lib = import_llama_cpp()
        self._llama = llama
        params = type(llama.context_params).from_buffer_copy(llama.context_params)
        params.n_seq_max = sequences
        params.n_ctx = sequences * per_sequence
        params.kv_unified = False
        params.embeddings = False
        self.ctx = lib.llama_init_from_model(llama._model.model, params)
        if not self.ctx:
            raise RuntimeError("cannot create the batch context")
        self.sequences = sequences
        self.capacity = int(lib.llama_n_ctx_seq(self.ctx))
        self._memory = lib.llama_get_memory(self.ctx)
        self._n_batch = int(llama.n_batch)
        self._batch = lib.llama_batch_init(max(self._n_batch, sequences), 0, 1)
        self.threads = int(params.n_threads)
        self._active: dict[int, _Sequence] = {}
        self._kept: dict[int, list[int]] = {slot: [] for slot in range(sequences)}  # free slots' KV

    def fits(self, plan: Plan) -> bool:
        return fits(plan, self.capacity)

    @property
    def has_room(self) -> bool:
        return bool(self._kept)

    @property
    def active(self) -> int:
        return len(self._active)

    def owners(self) -> list[Any]:
        return [sequence.owner for sequence in self._active.values()]

    def prefixes(self) -> list[list[int]]:
        """Token sequences whose KV this context holds (the queue prefers calls continuing them):
        free slots' KV and the prompts being answered (not growing with each token: the queue
        compares a waiting call with each distinct prefix once)."""
        return [kv for kv in self._kept.values() if kv] + [
            list(seq.completion.plan.prompt) for seq in self._active.values()
        ]

    def set_threads(self, threads: int) -> None:
        if threads != self.threads:
            self._lib.llama_set_n_threads(self.ctx, threads, threads)
            self.threads = threads

    def start(self, owner: Any, plan: Plan) -> Decoded | None:
        """Prefill ``plan``'s prompt in a free slot and sample its first token (the answer may
        already be finished: returned)."""
        prompt = list(plan.prompt)
        slot, reused = self._restore(prompt)
        kv, last = prompt[:reused], 0
        # In chunks of n_batch from the first token not reused, logits for each chunk's last
        # token only, as ``Llama.eval`` does.
        for begin in range(reused, len(prompt), self._n_batch):
            chunk = prompt[begin : begin + self._n_batch]
            self._fill([(token, begin + i, slot, i == len(chunk) - 1) for i, token in enumerate(chunk)])
            kv, last = kv + chunk, len(chunk) - 1
        if len(prompt) - reused >= MIN_RESTORE:
            self._store(slot, prompt, kv)  # for the calls beside it that share the prompt's prefix
        sampler = self._llama._init_sampler(temp=0.0, repeat_penalty=REPEAT_PENALTY)
        sequence = _Sequence(slot, owner, Completion(plan), sampler, kv, -1, reused)
        self._active[slot] = sequence
        return self._advance(sequence, last)

    def step(self) -> list[Decoded]:
        """One token for every active sequence; the sequences that finished."""
        ordered = sorted(self._active.values(), key=lambda sequence: sequence.slot)
        for sequence in ordered:
            if len(sequence.kv) >= self.capacity:
                self._release(sequence, store=False)
                raise Overflow(sequence.owner)
        self._fill([(sequence.next_token, len(sequence.kv), sequence.slot, True) for sequence in ordered])
        finished = []
        for index, sequence in enumerate(ordered):
            sequence.kv.append(sequence.next_token)
            done = self._advance(sequence, index)
            if done is not None:
                finished.append(done)
        return finished

    def abandon(self) -> list[Any]:
        """Drop every active sequence (after an error); their owners, to be served another way."""
        owners = self.owners()
        for sequence in list(self._active.values()):
            self._release(sequence, store=False)
        return owners

    def close(self) -> list[Any]:
        """Free the context; the owners of the sequences it was decoding."""
        if not self.ctx:
            return []
        owners = self.abandon()
        self._lib.llama_batch_free(self._batch)
        self._lib.llama_free(self.ctx)
        self.ctx = None
        return owners

    def _advance(self, sequence: _Sequence, index: int) -> Decoded | None:
        token = self._lib.llama_sampler_sample(sequence.sampler.sampler, self.ctx, index)
        if not sequence.completion.feed(token, self._llama, self._lib.llama_vocab_is_eog):
            sequence.next_token = token
            return None
        self._release(sequence, store=True)
        completion = sequence.completion
        return Decoded(
            sequence.owner,
            completion.text.decode("utf-8", errors="ignore"),
            len(completion.plan.prompt),
            len(completion.tokens),
            completion.finish_reason,
            sequence.reused,
        )

    def _fill(self, tokens: list[tuple[int, int, int, bool]]) -> None:
        """Decode (token, position, slot, wants logits) rows in one llama.cpp batch."""
        batch = self._batch
        batch.n_tokens = len(tokens)
        for i, (token, position, slot, logits) in enumerate(tokens):
            batch.token[i] = token
            batch.pos[i] = position
            batch.n_seq_id[i] = 1
            batch.seq_id[i][0] = slot
            batch.logits[i] = logits
        result = self._lib.llama_decode(self.ctx, batch)
        if result != 0:
            raise RuntimeError(f"llama_decode failed ({result}) in the batch context")

    def _restore(self, prompt: list[int]) -> tuple[int, int]:
        """A free slot holding the longest usable prefix of ``prompt`` (its own kept KV, or a
        stored state restored into it), trimmed to what is shared; and that length. At least
        the prompt's last token is left to evaluate: its logits give the first answer token."""
        limit = len(prompt) - 1
        # The lowest free slot unless another still holds a useful prefix: llama.cpp decodes the
        # sequences of a step in one pass only when their ids follow each other.
        kept_prefixes = [(slot, _shared(kv, prompt)) for slot, kv in self._kept.items()]
        slot, kept = max(kept_prefixes, key=lambda item: (item[1] if item[1] >= MIN_RESTORE else 0, -item[0]))
        del self._kept[slot]
        cache = self._llama.cache
        state = None
        if cache is not None and len(cache.cache_state):
            try:
                state = cache[prompt]
            except KeyError:
                state = None
        stored = _shared(state.input_ids[: state.n_tokens].tolist(), prompt) if state is not None else 0
        if state is not None and min(stored, limit) >= MIN_RESTORE and stored > kept:
            data = restream(state.llama_state, 1, self.sequences, slot)
            buffer = (ctypes.c_uint8 * len(data)).from_buffer_copy(data)
            if self._lib.llama_state_seq_set_data(self.ctx, buffer, len(data), slot) != len(data):
                raise RuntimeError("failed to restore a stored state into the batch context")
            kept = stored
        reused = min(kept, limit)
        self._lib.llama_memory_seq_rm(self._memory, slot, reused, -1)
        return slot, reused

    def _store(self, slot: int, prompt: list[int], kv: list[int]) -> None:
        """Keep ``slot``'s KV state (``prompt``'s cells) in the model's state store under ``prompt``."""
        cache = self._llama.cache
        if cache is None:
            return
        from llama_cpp import LlamaState

        size = int(self._lib.llama_state_seq_get_size(self.ctx, slot))
        buffer = (ctypes.c_uint8 * size)()
        written = int(self._lib.llama_state_seq_get_data(self.ctx, buffer, size, slot))
        data = restream(ctypes.string_at(buffer, written), self.sequences, 1, slot)
        cache[prompt] = LlamaState(
            input_ids=np.asarray(kv, dtype=np.intc),
            scores=np.empty((0, self._llama._n_vocab), dtype=np.single),
            n_tokens=len(kv),
            llama_state=data,
            llama_state_size=len(data),
            seed=self._llama._seed,
        )

    def _release(self, sequence: _Sequence, store: bool) -> None:
        del self._active[sequence.slot]
        if store:
            # The prompt's cells only: the answer's were computed one token at a time and are not what
            # a later prompt containing them would compute (trustmh.models.reuse, forget_answer).
            prompt = list(sequence.completion.plan.prompt)
            self._lib.llama_memory_seq_rm(self._memory, sequence.slot, len(prompt), -1)
            self._store(sequence.slot, prompt, sequence.kv[: len(prompt)])
            self._kept[sequence.slot] = sequence.kv[: len(prompt)]
        else:
            self._lib.llama_memory_seq_rm(self._memory, sequence.slot, -1, -1)
            self._kept[sequence.slot] = []
        sequence.sampler.close()


def _shared(a: Sequence[int], b: Sequence[int]) -> int:
    """Length of the common prefix of two token sequences."""
    return common_prefix(np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64))
