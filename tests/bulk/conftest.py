from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
FAKE_KEY = "sk-test-DO-NOT-LEAK-7f3a9c2e"


@pytest.fixture
def fake_key(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    return FAKE_KEY


@pytest.fixture
def tiny_csv() -> Path:
    return FIXTURES / "mentalbench_tiny.csv"
