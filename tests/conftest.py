"""Test configuration shared by every test folder.

* ``shared_data``: the real public datasets (``../shared/data`` beside the repo, or
  ``$TRUSTMH_TEST_DATA``). Missing locally → the tests that need it are skipped with the
  reason shown; missing under CI → they fail, because CI always has the data.
* Every test gets its own empty cache and is offline: nothing may be downloaded in tests.
* Under pytest-xdist (the default: ``-n auto --dist loadgroup`` in pyproject.toml) a module's tests
  run on one worker, so a module-scoped fixture is built once; the report tests all run on one
  worker, as they share one session fixture (real runs of the embedded model).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]


def shared_data_dir() -> Path:
    return Path(os.environ.get("TRUSTMH_TEST_DATA", REPO_ROOT.parent / "shared" / "data"))


def require_shared_data() -> Path:
    """The real data folder; skip the calling test locally, fail it under CI, if absent."""
    path = shared_data_dir()
    if not (path / "README.md").is_file():
        message = f"real datasets not found at {path} (set TRUSTMH_TEST_DATA)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path


@pytest.fixture(scope="session")
def shared_data() -> Path:
    return require_shared_data()


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path_factory.mktemp("trustmh-cache")
    monkeypatch.setenv("TRUSTMH_CACHE_DIR", str(cache))
    monkeypatch.setenv("TRUSTMH_OFFLINE", "1")
    monkeypatch.delenv("TRUSTMH_DATA_DIR", raising=False)
    return cache


@pytest.fixture(autouse=True)
def fresh_inspect_models() -> Iterator[None]:
    """inspect memoizes model objects by name for the whole process: a judge named like one of an
    earlier test on the same worker would still call that test's closed server (retrying for
    minutes). Every test starts without them."""
    yield
    from inspect_ai.model import _model

    _model._models.clear()


# Folders whose tests share an expensive session fixture: all of a folder's tests go to one worker.
SESSION_GROUPS = ("report",)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        path = item.path.relative_to(REPO_ROOT / "tests")
        group = path.parts[0] if path.parts[0] in SESSION_GROUPS else path.as_posix()
        item.add_marker(pytest.mark.xdist_group(group))
