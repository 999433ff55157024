"""Shared fixtures: tiny synthetic rating files and the released data when available."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
REPO = Path(__file__).resolve().parents[2]


def data_root() -> Path:
    return Path(os.environ.get("TRUSTMH_TEST_DATA", REPO.parent / "shared" / "data"))


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


@pytest.fixture(scope="session")
def mentalalign_dir() -> Path:
    folder = data_root() / "mentalalign70k"
    if not (folder / "human_judge.xlsx").is_file():
        pytest.skip(f"MentalAlign-70k not found in {folder}")
    return folder
