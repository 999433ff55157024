"""Fixtures of the hardening tests (helpers live in hardening_cli.py: a module named
``conftest`` would clash with other test folders' conftest when importing by name)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """An isolated HOME / cache / inspect data dir so runs never touch the user's."""
    path = tmp_path / "home"
    path.mkdir()
    return path
