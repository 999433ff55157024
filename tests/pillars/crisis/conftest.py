"""Fixtures of the Crisis tests (the scripted judge registers on import of helpers)."""

from __future__ import annotations

from pathlib import Path

import pytest

import tests.crisis.helpers  # noqa: F401  (registers the scripted judge)


@pytest.fixture
def crisis_data(shared_data: Path) -> Path:
    """The real datasets folder (see tests/conftest.py: skipped locally, fails under CI)."""
    return shared_data
