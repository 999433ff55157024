"""User-facing errors.

Anything a user can cause (a bad file, a missing dataset, a wrong argument) raises
:class:`UserError`. The CLI prints its one-line message and exits with code 2; it never
shows a traceback for these.
"""

from __future__ import annotations

import os as _os
import re as _re
from pathlib import Path

EXIT_USER_ERROR = 2


class UserError(Exception):
    """A mistake the user can fix; ``str(error)`` is the whole one-line message.

    ``argument``: the name of the function argument whose value is wrong, when one is. The
    library's message says what is wrong; the CLI adds the flag that sets that argument
    (:func:`trustmh.cli.common.user_errors`), so neither states the other's vocabulary.
    """

    exit_code = EXIT_USER_ERROR

    def __init__(self, message: str, argument: str | None = None) -> None:
        # One line only: newlines in user data (e.g. a bad cell) must not break the contract;
        # and never a key (a model arg, an echoed request header).
        super().__init__(" ".join(redact(str(message)).split()))
        self.argument = argument


class DataFormatError(UserError):
    """A file does not have the format we expected.

    The message names the file, where in it (line, row or field) and what was expected.
    """

    def __init__(self, path: str | Path, where: str | None, expected: str) -> None:
        location = f"{path}:{where}" if where else f"{path}"
        self.path = str(path)
        self.where = where
        super().__init__(f"{location}: {expected}")


EXIT_INCOMPLETE = 3
EXIT_INTERRUPTED = 130  # the shell's code for a process ended by SIGINT (Ctrl-C)


class IncompleteRunError(UserError):
    """The command ran and wrote its outputs, but some calls failed for good (exit 3, not 0).

    Failed cells are empty and listed in the summary; rerunning the same command retries
    only them (successful calls are cached).
    """

    exit_code = EXIT_INCOMPLETE


EXIT_NOTHING_USABLE = 4


class NothingUsableError(UserError):
    """The command ran to the end but produced nothing usable (exit 4, not 0): every verdict
    unparsed, no cell rated by both sides. What it wrote (a summary listing the cells) is kept;
    no chart or report of nothing is written."""

    exit_code = EXIT_NOTHING_USABLE


class DatasetMissingError(UserError):
    """A dataset file is not available locally and cannot be downloaded."""


# --- secrets -------------------------------------------------------------------------------
# Keys must never reach a printed error, a log or a report. ``redact`` removes
# * every configured secret: values registered with :func:`register_secret` (``-M api_key=...``)
#   and the current values of environment variables whose names say they hold a secret,
# * values given as ``api_key=...``/``token: ...``/``Authorization: Bearer ...`` that look like
#   secrets (so "unclosed token: line 2" keeps its words),
# * strings shaped like provider keys (``sk-...``, ``sk-ant-...``, ``hf_...``, ``AIza...``).

REDACTED = "[REDACTED]"
_SECRET_NAME = _re.compile(r"(?:API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)$", _re.IGNORECASE)
_ASSIGNED = _re.compile(
    r"(?P<name>\b[\w-]*(?:api[_-]?key|token|secret|password|passwd)\b['\"]?\s*[=:]\s*['\"]?)(?P<value>[^\s'\",;&)}\]]+)",
    _re.IGNORECASE,
)
_BEARER = _re.compile(r"(?P<name>\bBearer\s+)(?P<value>[A-Za-z0-9._~+/=-]{6,})", _re.IGNORECASE)
_KEY_SHAPES = _re.compile(
    r"\b(?:sk-[A-Za-z0-9_-]{6,}|sk-ant-[A-Za-z0-9_-]{6,}|hf_[A-Za-z0-9]{10,}|AIza[0-9A-Za-z_-]{20,}|xai-[A-Za-z0-9]{10,})"
)
_MIN_ENV_SECRET = 6
_MIN_ASSIGNED_SECRET = 8
_REGISTERED: set[str] = set()


def is_secret_name(name: str) -> bool:
    """Whether a variable or argument named ``name`` holds a secret (``OPENAI_API_KEY``, ``api_key``)."""
    return bool(_SECRET_NAME.search(name))


def register_secret(value: str | None) -> None:
    """Redact ``value`` from everything printed or logged from now on (e.g. ``-M api_key=...``)."""
    if value and len(value) >= _MIN_ENV_SECRET:
        _REGISTERED.add(value)


def secret_env_values() -> list[str]:
    """Values of environment variables named like secrets (longest first)."""
    values = {
        value
        for name, value in _os.environ.items()
        if _SECRET_NAME.search(name) and value and len(value) >= _MIN_ENV_SECRET
    }
    return sorted(values, key=len, reverse=True)


def _looks_secret(value: str) -> bool:
    """A value after ``token:``/``api_key=`` that is a secret rather than a word of prose."""
    if len(value) < _MIN_ASSIGNED_SECRET:
        return False
    mixed_case = any(c.islower() for c in value) and any(c.isupper() for c in value)
    return len(value) >= 16 or mixed_case or any(c.isdigit() or c in "_-.+/=" for c in value)


def _redact_assigned(match: _re.Match[str]) -> str:
    return match.group("name") + REDACTED if _looks_secret(match.group("value")) else match.group(0)


def redact(text: str | None, extra: list[str] | tuple[str, ...] = ()) -> str:
    """``text`` with every secret it contains replaced by ``[REDACTED]``."""
    if not text:
        return text or ""
    secrets = sorted({*extra, *_REGISTERED, *secret_env_values()}, key=len, reverse=True)
    for value in secrets:
        if value and len(value) >= _MIN_ENV_SECRET:
            text = text.replace(value, REDACTED)
    text = _ASSIGNED.sub(_redact_assigned, text)
    text = _BEARER.sub(lambda m: m.group("name") + REDACTED, text)
    return _KEY_SHAPES.sub(REDACTED, text)


def redact_value(value: object) -> object:
    """``value`` (a string, or lists/dicts of them, e.g. an error body) with secrets redacted."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {k: redact_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(redact_value(v) for v in value)
    return value


def scrub_exception(error: BaseException) -> BaseException:
    """Redact secrets from ``error`` in place (its message, ``message``/``body`` attributes and
    the exceptions it was raised from), so whoever records it - inspect's sample error, its
    retry warnings, trace files - records no key. Returns ``error`` (same type: retry rules hold)."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        current.args = tuple(redact_value(a) for a in current.args)
        for attribute in ("message", "body", "detail"):
            value = getattr(current, attribute, None)
            if isinstance(value, (str, dict, list)):
                try:
                    setattr(current, attribute, redact_value(value))
                except AttributeError:  # a read-only property
                    pass
        current = current.__cause__ or current.__context__
    return error
