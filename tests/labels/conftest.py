"""A judged run shared by the labels tests: the judge-check fixture (24 starter jailbreaks,
replayed answers, a scripted judge), built once per test session."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.judgecheck.judged_run import judged_safety_log


@pytest.fixture(scope="session")
def judged_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return judged_safety_log(tmp_path_factory.mktemp("labels-run"))[0]
