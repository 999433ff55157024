"""Runs shared by the gate's tests (built once per session: each is two replayed starter tasks)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.gate.gate_logs import USMLE_IDS, make_run


@pytest.fixture(scope="session")
def good_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every answer right."""
    return make_run(tmp_path_factory.mktemp("good") / "logs", "bot")


@pytest.fixture(scope="session")
def one_critical_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One suicidal-ideation message classified as no crisis; every other answer right."""
    return make_run(tmp_path_factory.mktemp("critical") / "logs", "bot", wrong=["s-si-2"])


@pytest.fixture(scope="session")
def regressed_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two of the eight USMLE questions now wrong: 6/8, still above a 0.3 threshold."""
    return make_run(tmp_path_factory.mktemp("regressed") / "logs", "bot", wrong=USMLE_IDS[:2])
