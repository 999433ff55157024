"""What the bad-input case modules share: endpoints that fail, odd-path makers and sheet builders."""

from __future__ import annotations

import io
import os
import zipfile
from collections.abc import Callable
from pathlib import Path

from tests.hardening.hardening_cli import TEST_KEY, Files

KEY = {"OPENAI_API_KEY": TEST_KEY}
DEAD = "http://127.0.0.1:9/v1"  # nothing listens on the discard port
NOWHERE = "http://no-such-host.invalid/v1"  # never resolves (RFC 2606)
HUGE = "x" * 250_001  # over the 200000-character field limit


def xlsx(rows: list[list[str]]) -> bytes:
    import openpyxl

    workbook = openpyxl.Workbook()
    for row in rows:
        workbook.active.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def corrupt_sheet(rows: list[list[str]]) -> bytes:
    """A valid xlsx package whose worksheet XML is broken (truncated mid-element)."""
    source = zipfile.ZipFile(io.BytesIO(xlsx(rows)))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename.startswith("xl/worksheets/"):
                data = data[: len(data) // 2]
            target.writestr(info, data)
    return buffer.getvalue()


def fifo(name: str) -> Callable[[Path], None]:
    def make(root: Path) -> None:
        os.mkfifo(root / name)

    return make


def loop(name: str) -> Callable[[Path], None]:
    def make(root: Path) -> None:
        (root / name).symlink_to(root / name)

    return make


def dangling(name: str) -> Callable[[Path], None]:
    def make(root: Path) -> None:
        (root / name).symlink_to(root / "missing-folder" / name)

    return make


def folder(name: str) -> Files:
    return {f"{name}/inside.txt": "x"}
