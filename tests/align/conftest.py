"""Shared fixtures: tiny synthetic rating files and the released data when available."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


@pytest.fixture(scope="session")
def mentalalign_dir(shared_data: Path) -> Path:
    return shared_data / "mentalalign70k"
