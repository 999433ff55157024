"""The layout refactor (issue 23) changed no public name: the CLI's commands and options, the
inspect entry point with the tasks and providers it registers, and ``trustmh tasks --json``
are what they were before it (``tests/fixtures/public_surface.json``, recorded on that commit
with ``python -m tests.public_surface``). A deliberate change to them re-records the file."""

from __future__ import annotations

import json

import pytest

from tests.conftest import REPO_ROOT
from tests.public_surface import cli_surface, inspect_surface, tasks_json

RECORDED = json.loads((REPO_ROOT / "tests" / "fixtures" / "public_surface.json").read_text(encoding="utf-8"))


def test_the_cli_is_unchanged() -> None:
    assert cli_surface() == RECORDED["cli"]


def test_the_inspect_entry_point_and_names_are_unchanged() -> None:
    assert inspect_surface() == RECORDED["inspect"]


def test_trustmh_tasks_json_is_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRUSTMH_DATA_DIR", raising=False)
    assert tasks_json() == RECORDED["tasks_json"]
