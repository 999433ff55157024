"""Writing results: text and JSON to a path or stdout, whole or not at all.

Used by the CLI, the report and the alignment analysis alike, so no library module needs to
import the CLI to write a file.
"""

from __future__ import annotations

import json
import math
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from trustmh.core.errors import UserError
from trustmh.core.paths import check_output_file, os_error_words


def json_safe(value: Any) -> Any:
    """``value`` with NaN and infinities as ``None`` (JSON has no NaN) and keys as strings."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    return value


def json_text(payload: Any) -> str:
    """Indented JSON text (NaN as null, non-ASCII kept), ending with a newline."""
    return json.dumps(json_safe(payload), indent=2, ensure_ascii=False) + "\n"


def write_json(payload: Any, destination: str | Path) -> None:
    """Write JSON to a path or ``-`` (stdout). NaN becomes null; files are written atomically."""
    write_text(json_text(payload), destination)


def write_text(text: str, destination: str | Path) -> None:
    """Write text to a path or ``-`` (stdout); a file appears whole or not at all."""
    if str(destination) == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    path = Path(destination)
    check_output_file(path)  # a folder, FIFO or symlink loop is named as such
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
