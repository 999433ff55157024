"""Every conversation test gets its own inspect model cache (the turn store is isolated by the root conftest's
TRUSTMH_CACHE_DIR)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def isolated_model_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "xdg-cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(path))
    return path
