"""Keys never reach inspect's records: errors are redacted before inspect sees them.

An endpoint may echo the API key in an error body ("Incorrect API key provided: sk-...").
inspect records that text in the sample's error and model event (``.eval`` members), in
``logs.json``, in its trace files and in console retry warnings. Two guards, both installed
by trustmh's commands before a run:

* :func:`redacting_model` wraps a model's API so every exception it raises (or returns as
  an output) is scrubbed in place *before* inspect records it; the exception keeps its type,
  so inspect's retry rules are unchanged;
* :func:`install_log_redaction` makes every log record (inspect's, the SDKs') carry redacted
  text, whichever handler (console, trace file) writes it.
"""

from __future__ import annotations

import functools
import logging
from typing import TYPE_CHECKING, Any

from trustmh.core.errors import redact, scrub_exception

if TYPE_CHECKING:
    from inspect_ai.model import Model

_MARK = "_trustmh_redacting"


def _scrub_result(result: Any) -> Any:
    # A provider may return (exception, call) or an exception instead of raising it.
    if isinstance(result, BaseException):
        scrub_exception(result)
    elif isinstance(result, tuple) and result and isinstance(result[0], BaseException):
        scrub_exception(result[0])
    return result


def redacting_model(model: Model) -> Model:
    """``model`` with its API's errors redacted before inspect records them (idempotent)."""
    api = model.api
    if getattr(api, _MARK, False):
        return model
    generate = api.generate

    @functools.wraps(generate)
    async def redacted_generate(*args: Any, **kwargs: Any) -> Any:
        try:
            result = await generate(*args, **kwargs)
        except Exception as error:
            scrub_exception(error)
            raise  # the same object: traceback and type stay
        return _scrub_result(result)

    api.generate = redacted_generate  # type: ignore[method-assign]
    setattr(api, _MARK, True)
    return model


def get_redacting_model(name: str, **kwargs: Any) -> Model:
    from inspect_ai.model import get_model

    return redacting_model(get_model(name, **kwargs))


def install_log_redaction() -> None:
    """Every log record created from now on has its message (and exception) redacted."""
    previous = logging.getLogRecordFactory()
    if getattr(previous, _MARK, False):
        return

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a malformed record is logging's problem, not ours
            return record
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, ()
        if record.exc_info and record.exc_info[1] is not None:
            scrub_exception(record.exc_info[1])
        return record

    setattr(factory, _MARK, True)
    logging.setLogRecordFactory(factory)
