"""User-facing errors.

Anything a user can cause (a bad file, a missing dataset, a wrong argument) raises
:class:`UserError`. The CLI prints its one-line message and exits with code 2; it never
shows a traceback for these.
"""

from __future__ import annotations

from pathlib import Path

EXIT_USER_ERROR = 2


class UserError(Exception):
    """A mistake the user can fix; ``str(error)`` is the whole one-line message."""

    exit_code = EXIT_USER_ERROR

    def __init__(self, message: str) -> None:
        # One line only: newlines in user data (e.g. a bad cell) must not break the contract.
        super().__init__(" ".join(str(message).split()))


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
