"""User-facing errors.

Anything a user can cause (a bad file, a missing dataset, a wrong argument) raises
:class:`UserError`. The CLI prints its one-line message and exits with code 2; it never
shows a traceback for these.
"""

from __future__ import annotations

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


class DatasetMissingError(UserError):
    """A dataset file is not available locally and cannot be downloaded."""


# --- secrets -------------------------------------------------------------------------------
# Keys must never reach a printed error, a log or a report. ``redact`` removes
# * values given as ``api_key=...``/``token: ...``/``Authorization: Bearer ...``,
# * strings shaped like provider keys (``sk-...``, ``sk-ant-...``, ``hf_...``, ``AIza...``),
# * the current values of environment variables whose names say they hold a secret.

import os as _os
import re as _re

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


def secret_env_values() -> list[str]:
    """Values of environment variables named like secrets (longest first)."""
    values = {
        value
        for name, value in _os.environ.items()
        if _SECRET_NAME.search(name) and value and len(value) >= _MIN_ENV_SECRET
    }
    return sorted(values, key=len, reverse=True)


def redact(text: str | None, extra: list[str] | tuple[str, ...] = ()) -> str:
    """``text`` with every secret it contains replaced by ``[REDACTED]``."""
    if not text:
        return text or ""
    for value in [*extra, *secret_env_values()]:
        if value and len(value) >= _MIN_ENV_SECRET:
            text = text.replace(value, REDACTED)
    text = _ASSIGNED.sub(lambda m: m.group("name") + REDACTED, text)
    text = _BEARER.sub(lambda m: m.group("name") + REDACTED, text)
    return _KEY_SHAPES.sub(REDACTED, text)
