"""The starter suite's items: small JSONL files shipped inside each pillar's ``starter`` package."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def load_starter(package: str, filename: str) -> list[dict[str, Any]]:
    """Records of a starter JSONL file shipped inside ``package`` (one object per line)."""
    text = resources.files(package).joinpath(filename).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]
