"""The embedded model's worker decoding greedy calls together (:mod:`trustmh.models.batching`).

:class:`TogetherMixin` is the part of :class:`~trustmh.models.llama.EmbeddedLlama` that runs
when the call its worker takes next can be decoded together with another one waiting: it starts
the first in a :class:`~trustmh.models.batching.BatchDecoder`, takes in more waiting calls while
sequences are free (as the queue orders them: longest reusable prefix first, a call waiting too
long first — :mod:`trustmh.models.scheduling`), steps all sequences one token at a time, answers
each call as soon as its sequence finishes, and returns to the one-at-a-time path when no
sequence is left. A call that is not greedy, or that became due while others decoded, waits for
that: the decoder takes in nothing once a call it cannot take is due.

If the batch context fails (an error of llama.cpp, a state it cannot restore), the calls it held
are answered one at a time instead — the same tokens, by construction — and batching stays off
for the rest of the process, with one warning.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from trustmh.models.batching import SEQUENCE_CONTEXT, BatchDecoder, Decoded, Overflow
from trustmh.models.completion import fits
from trustmh.models.scheduling import PrefixQueue

logger = logging.getLogger(__name__)


class TogetherMixin:
    """Decoding greedy calls together, for :class:`~trustmh.models.llama.EmbeddedLlama`."""

    # Defaults for a model built without its __init__ (the tests' stand-ins): nothing is batched.
    _sequences: int = 0
    _decoder: BatchDecoder | None = None
    # Provided by EmbeddedLlama.
    path: Any
    _lock: threading.Lock
    _llama: Any
    _answers: Any
    _wakeup: threading.Condition
    _waiting: PrefixQueue[Any]
    _closed: bool

    def _serve_one(self, call: Any) -> None:
        raise NotImplementedError

    def _deliver(self, decoded: Decoded) -> None:
        raise NotImplementedError

    def _new_decoder(self) -> BatchDecoder:
        raise NotImplementedError

    def _use_free_cores(self) -> None:
        raise NotImplementedError

    def _reusable_prefixes(self) -> list[Any]:
        raise NotImplementedError

    def _answered(self, call: Any) -> bool:
        raise NotImplementedError

    def _batchable(self, call: Any) -> bool:
        """Whether ``call`` can be decoded together with others (its plan fits a sequence)."""
        plan = call.plan
        if plan is None or self._sequences < 2 or self._answered(call):
            return False
        capacity = self._decoder.capacity if self._decoder is not None else SEQUENCE_CONTEXT
        return fits(plan, capacity)

    def _joinable(self, call: Any) -> bool:
        """Whether the decoder takes ``call`` in: batchable, or answered at once from the answer
        cache. Not while the same request is being decoded: it waits to be answered from the cache
        (a robustness task's clean pass is its base task's request) instead of being decoded twice."""
        decoder = self._decoder
        if decoder is not None and any(owner[0].request == call.request for owner in decoder.owners()):
            return False
        return self._answered(call) or self._batchable(call)

    def _decode_together(self, first: Any) -> None:
        """Decode ``first`` and the calls joining it until no sequence is left (module docstring)."""
        pending: Any = first
        while True:
            try:
                while pending is not None:
                    self._join(pending)
                    pending = None
                    pending = self._next_joining()
                with self._lock:
                    decoder = self._decoder
                    if self._llama is None or decoder is None or not decoder.active:
                        return
                    self._use_free_cores()
                    finished = decoder.step()
            except Overflow as overflow:
                self._serve_one(overflow.owner[0])  # it outgrew its sequence: answered one at a time
                continue
            except BaseException as error:  # noqa: BLE001 - its calls are answered one at a time instead
                self._stop_decoding_together(error, pending)
                return
            for decoded in finished:
                self._deliver(decoded)
            pending = self._next_joining()

    def _join(self, call: Any) -> None:
        """Start ``call`` in a free sequence (or answer it now: answered before, or no longer fitting)."""
        done: Decoded | None = None
        with self._lock:
            decoder = self._batch_decoder() if self._llama is not None and not self._answered(call) else None
            joined = decoder is not None and call.plan is not None and decoder.fits(call.plan)
            if joined:
                assert decoder is not None
                self._use_free_cores()
                done = decoder.start((call, time.monotonic() - call.queued_at), call.plan)
        if not joined:
            self._serve_one(call)
        elif done is not None:
            self._deliver(done)

    def _next_joining(self) -> Any | None:
        """The next waiting call to take in while a sequence is free (None: none can join now)."""
        decoder = self._decoder
        while decoder is not None and decoder.has_room:
            with self._wakeup:
                if self._closed or not self._waiting.any(self._joinable):
                    return None
                call = self._waiting.take_eligible(self._reusable_prefixes(), self._joinable, self._answered)
            if call is None:
                return None
            if call.future.set_running_or_notify_cancel():
                return call
        return None

    def _batch_decoder(self) -> BatchDecoder:
        if self._decoder is None:
            self._decoder = self._new_decoder()
        return self._decoder

    def _close_decoder(self) -> list[Any]:
        """Free the batch context; the calls it was decoding (their handles: call, seconds waited)."""
        decoder, self._decoder = self._decoder, None
        return decoder.close() if decoder is not None else []

    def _stop_decoding_together(self, error: BaseException, pending: Any) -> None:
        with self._lock:
            owners = self._close_decoder()
        self._sequences = 0
        logger.warning(
            "%s: decoding calls together failed (%s: %s); calls are now decoded one at a time",
            getattr(self.path, "name", self.path),
            type(error).__name__,
            error,
        )
        for call, _waited in owners:
            self._serve_one(call)
        if pending is not None:
            self._serve_one(pending)
