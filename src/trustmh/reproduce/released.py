"""Reading upstream's released outputs and figures out of the pinned archives."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

from trustmh.core.errors import DataFormatError
from trustmh.data.upstream import upstream_zip_member, upstream_zip_members


def members(key: str, pattern: str, data_dir: str | Path | None) -> dict[str, str]:
    """``{first group of pattern: member}`` for the archive members matching ``pattern``."""
    regex = re.compile(pattern)
    found = {}
    for name in upstream_zip_members(key, data_dir):
        match = regex.fullmatch(name)
        if match:
            found[match.group(1)] = name
    return found


def text(key: str, member: str, data_dir: str | Path | None, encoding: str = "utf-8") -> str:
    return upstream_zip_member(key, member, data_dir).decode(encoding)


def json_member(key: str, member: str, data_dir: str | Path | None) -> Any:
    try:
        return json.loads(text(key, member, data_dir))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise DataFormatError(f"{key}:{member}", None, f"expected JSON ({error})") from None


def jsonl_member(key: str, member: str, data_dir: str | Path | None) -> list[dict[str, Any]]:
    rows = []
    for number, line in enumerate(text(key, member, data_dir).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as error:
            raise DataFormatError(f"{key}:{member}", f"line {number}", f"expected a JSON object ({error})") from None
    return rows


def csv_member(key: str, member: str, data_dir: str | Path | None) -> list[dict[str, str]]:
    # upstream writes its summaries with a byte-order mark (pandas encoding="utf-8-sig")
    return list(csv.DictReader(io.StringIO(text(key, member, data_dir, "utf-8-sig"))))
