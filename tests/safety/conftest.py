"""Fixtures of the Safety tests: the shared data folder; importing safety_judge registers the scripted judge."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import tests.safety.safety_judge  # noqa: F401  (registers the scripted_safety_judge model API)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    default = Path(__file__).resolve().parents[2].parent / "shared" / "data"
    path = Path(os.environ.get("TRUSTMH_TEST_DATA", default))
    if not (path / "trustmh").is_dir():
        pytest.skip(f"shared data not found at {path} (set TRUSTMH_TEST_DATA)")
    return path
