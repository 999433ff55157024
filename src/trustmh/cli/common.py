"""Helpers shared by every CLI command: user-error handling, JSON output, consoles."""

from __future__ import annotations

import functools
import json
import math
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from trustmh.errors import UserError, redact
from trustmh.paths import check_output_file, os_error_words

console = Console()
err_console = Console(stderr=True)

F = TypeVar("F", bound=Callable[..., Any])


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print a one-line error (never a traceback, never a key) and return the Exit to raise."""
    line = " ".join(redact(message).split())
    err_console.print(f"[bold red]error:[/bold red] {escape(line)}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


def user_errors(function: F) -> F:
    """Turn :class:`UserError` raised inside a command into one line on stderr and exit 2."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except UserError as error:
            raise fail(str(error), error.exit_code) from None

    return wrapper  # type: ignore[return-value]


def _json_safe(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    return value


def write_json(payload: Any, destination: str | Path) -> None:
    """Write JSON to a path or ``-`` (stdout). NaN becomes null; files are written atomically."""
    text = json.dumps(_json_safe(payload), indent=2, ensure_ascii=False) + "\n"
    write_text(text, destination)


def write_text(text: str, destination: str | Path) -> None:
    """Write text to a path or ``-`` (stdout); a file appears whole or not at all."""
    if str(destination) == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    path = Path(destination)
    check_output_file(path)
    temporary: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, delete=False, suffix=".tmp") as tmp:
            temporary = tmp.name
            tmp.write(text)
        # NamedTemporaryFile creates 0600 files; give the result the mode a plain open() would.
        os.chmod(tmp.name, 0o666 & ~current_umask())
        os.replace(tmp.name, path)
    except OSError as error:
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)  # a failed write leaves nothing behind
        raise UserError(f"{path}: cannot write ({os_error_words(error)})") from None


def current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
