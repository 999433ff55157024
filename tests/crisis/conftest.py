"""Fixtures of the Crisis tests (the scripted judge registers on import of helpers)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.crisis.helpers import shared_data_dir


@pytest.fixture
def crisis_data() -> Path:
    """The real datasets folder; tests needing it are skipped when it is absent."""
    path = shared_data_dir()
    if not (path / "llms_mh_crisis").is_dir():
        pytest.skip(f"real data not found at {path} (set TRUSTMH_TEST_DATA)")
    return path
