"""Odd paths say what they are: a folder, a FIFO, a symlink loop, a full disk.

``open()`` on a FIFO blocks forever, a symlink loop surfaces as "file not found" or an
internal error, and a full disk as a traceback. These checks give one line naming the path,
what it is and what was expected, for inputs and outputs alike (exit 2 through UserError).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from trustmh.core.errors import UserError

_WORDS = {
    errno.ENOSPC: "no space left on the device",
    errno.EDQUOT: "disk quota exceeded",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EROFS: "read-only file system",
    errno.EISDIR: "is a folder, expected a file",
    errno.ENOTDIR: "a parent in the path is not a folder",
    errno.ELOOP: "symlink loop",
    errno.ENAMETOOLONG: "file name too long",
    errno.ENOENT: "file not found",
}


def os_error_words(error: OSError) -> str:
    """What an ``OSError`` means, in a few words (no traceback, no errno number)."""
    return _WORDS.get(error.errno or -1, error.strerror or type(error).__name__)


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def check_input_file(path: Path, expected: str = "a file") -> None:
    """``path`` is an existing regular file (following symlinks), else one-line UserError."""
    try:
        mode = os.stat(path).st_mode
    except OSError as error:
        raise UserError(f"{path}: {os_error_words(error)}") from None
    if not stat.S_ISREG(mode):
        raise UserError(f"{path}: {_kind(mode)}; expected {expected}")


def check_output_file(path: Path, option: str = "output") -> None:
    """``path`` can become a regular file: it does not exist or is one; else one-line UserError."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        if path.is_symlink():  # a dangling link: writing would create its target somewhere else
            raise UserError(f"{option} {path}: a symlink to a missing file; expected a file path") from None
        return
    except OSError as error:
        raise UserError(f"{option} {path}: {os_error_words(error)}; expected a file path") from None
    if not stat.S_ISREG(mode):
        raise UserError(f"{option} {path}: {_kind(mode)}; expected a file path")
