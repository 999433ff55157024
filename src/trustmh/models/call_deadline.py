"""A model call ends within ``--timeout``, every attempt included, and says why in one line.

inspect checks a call's ``timeout`` only *between* attempts (tenacity's ``stop_after_delay``):
the attempt in flight runs on to its own limit (the attempt timeout, 180 s by default; an HTTP
chatbot's per-request ``timeout``, 120 s) and the back-off before the next attempt is not cut
either. Under ``--timeout 30`` a reply trickled a byte at a time was still being read after
228 s. A call that gave up ended as tenacity's ``RetryError(<Future ... raised X>)``, which names
neither the endpoint nor what went wrong, and the sample was then retried (and its task rerun
by the eval set), each time with the whole budget again: a ``null`` reply took 159 s under
``--timeout 20``.

:func:`bounded_calls` wraps a built model:

* the call's retry loop is cancelled ``timeout`` seconds after its first attempt was sent
  (waiting for a connection slot, or for room under a cost cap, is not counted);
* each attempt's error is noted, so the end is one line naming the model, its endpoint and the
  last error: :class:`ModelCallError`;
* a call that used up its whole ``timeout`` stops the run
  (:func:`trustmh.core.run_stop.stop_run`: finished samples kept, rerunning resumes), which
  ends with that line: the endpoint failed for all the time the user allowed one call, and
  retrying the sample or the task would spend it again for every sample.

A call that gave up after ``--max-retries`` within its time is a sample error as before, now
with its one-line reason instead of ``RetryError``.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import anyio

from trustmh.core.errors import redact

if TYPE_CHECKING:
    from inspect_ai.model import Model

_MARK = "_trustmh_bounded_calls"
TIMED_OUT = "a model call used up its --timeout"  # the run stop's reason
# Readable names of the errors an API model's attempts end with.
ERROR_KINDS = {
    "InternalServerError": "HTTP 5xx from the model endpoint",
    "APIStatusError": "HTTP error from the model endpoint",
    "RateLimitError": "HTTP 429 (rate limited)",
    "APITimeoutError": "request timed out",
    "AttemptTimeoutError": "attempt timed out",
    "APIConnectionError": "cannot connect to the model endpoint",
    "APIResponseValidationError": "malformed response body",
    "JSONDecodeError": "malformed response body",
}
LAST_ERROR_CHARS = 200


class ModelCallError(Exception):
    """A model call that gave up: ``message`` is its one line (inspect records ``message`` as the
    sample's error text)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class _Attempts:
    """One call's attempts; its deadline is set when the first attempt is sent."""

    scope: anyio.CancelScope
    timeout: float | None
    started: float | None = None  # time.monotonic() of the first attempt
    count: int = 0
    last: BaseException | None = None  # the error the last finished attempt ended with
    in_flight: bool = False

    def sent(self) -> None:
        self.count += 1
        self.in_flight = True  # stays so when the attempt is cancelled (a deadline cut it)
        if self.started is None:
            self.started = time.monotonic()
            if self.timeout:
                self.scope.deadline = anyio.current_time() + self.timeout

    @property
    def elapsed(self) -> float:
        return 0.0 if self.started is None else time.monotonic() - self.started

    def __str__(self) -> str:
        counted = f"{self.count} attempt{'s' if self.count != 1 else ''}"
        if not self.in_flight:
            return f"{counted}; last: {_describe(self.last)}"
        cut = f"{counted}, the last cut while waiting for its reply"
        return cut if self.last is None else f"{cut}; the one before: {_describe(self.last)}"


_current: ContextVar[_Attempts | None] = ContextVar("trustmh_call_attempts", default=None)


def _describe(error: BaseException | None) -> str:
    if error is None:
        return "no error"
    name = type(error).__name__
    text = " ".join(str(getattr(error, "message", None) or error).split())
    text = text if len(text) <= LAST_ERROR_CHARS else text[:LAST_ERROR_CHARS] + "…"
    kind = ERROR_KINDS.get(name)
    return f"{kind} ({name}): {text}" if kind else f"{name}: {text}" if text else name


def endpoint_of(model: Model) -> str:
    """Where ``model``'s calls go, for an error line (secrets redacted)."""
    from trustmh.core.endpoints import model_endpoint

    chatbot = getattr(model.api, "chatbot", None)  # trustmh/http: its config's URL
    if chatbot is not None:
        return redact(chatbot.config.url.split("?")[0], chatbot.config.secret_values)
    url = model_endpoint(str(model), getattr(model.api, "base_url", None))
    return redact(url) if url else "its endpoint"


def _note_attempts(generate: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    async def noted(*args: Any, **kwargs: Any) -> Any:
        attempts = _current.get()
        if attempts is None:
            return await generate(*args, **kwargs)
        attempts.sent()
        try:
            result = await generate(*args, **kwargs)
        except Exception as error:
            attempts.in_flight, attempts.last = False, error
            raise
        attempts.in_flight = False
        # A provider may return (exception, call) or an exception instead of raising it.
        returned = result[0] if isinstance(result, tuple) and result else result
        if isinstance(returned, BaseException):
            attempts.last = returned
        return result

    return noted


def _bounded(model: Model, loop: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    from tenacity import RetryError

    async def bounded(*args: Any, **kwargs: Any) -> Any:
        # The clock starts with the first attempt: a call held before it (waiting for room under
        # a cost cap) has not asked the endpoint anything yet.
        with anyio.CancelScope() as scope:
            attempts = _Attempts(scope, getattr(kwargs.get("config"), "timeout", None) or None)
            token = _current.set(attempts)
            try:
                return await loop(*args, **kwargs)
            except RetryError:
                if attempts.timeout is None or attempts.elapsed < attempts.timeout:
                    raise ModelCallError(
                        f"{model} at {endpoint_of(model)}: gave up after {attempts.elapsed:.0f} s ({attempts})"
                    ) from None
            finally:
                _current.reset(token)
        _timed_out(model, attempts)  # cancelled at the deadline, or gave up past it

    return bounded


def _timed_out(model: Model, attempts: _Attempts) -> None:
    from trustmh.core.run_stop import stop_run

    message = (
        f"{model} at {endpoint_of(model)}: no answer within --timeout {attempts.timeout:g} s ({attempts}); "
        "finished samples are in the log, rerun the same command to resume"
    )
    stop_run(TIMED_OUT, message)
    raise ModelCallError(message)


def bounded_calls(model: Model) -> Model:
    """``model`` with each call bounded by its ``timeout`` and its failure one line (idempotent;
    see the module docstring). For API models: an embedded model's call waits its turn in the
    model's queue, and that wait is not the endpoint's failing."""
    from trustmh.core.inspect_compat import wrap_retry_loop

    if getattr(model, _MARK, False):
        return model
    model.api.generate = _note_attempts(model.api.generate)  # type: ignore[method-assign,assignment]
    wrap_retry_loop(model, lambda loop: _bounded(model, loop))
    setattr(model, _MARK, True)
    return model
