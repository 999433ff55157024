"""Nothing users or inspect had is gone or renamed: every CLI command and option, the inspect
entry point with the tasks and providers it registers, and every task of ``trustmh tasks
--json`` with its group, datasets and arguments, as recorded before the layout refactor of
issue 23 (``tests/fixtures/public_surface.json``, made on 666b164 with ``python -m
tests.public_surface``). The refactor itself left the surface identical (checked at ad897d5);
features since may only add to it."""

from __future__ import annotations

import json

import pytest

from tests.conftest import REPO_ROOT
from tests.public_surface import cli_surface, inspect_surface, tasks_json

RECORDED = json.loads((REPO_ROOT / "tests" / "fixtures" / "public_surface.json").read_text(encoding="utf-8"))


def test_every_cli_command_and_option_is_still_there() -> None:
    now = cli_surface()
    for command, params in RECORDED["cli"].items():
        assert command in now, command
        current = {(p["name"], tuple(p["flags"]), p["kind"]) for p in now[command]}
        for param in params:
            assert (param["name"], tuple(param["flags"]), param["kind"]) in current, (command, param)


def test_the_inspect_entry_point_and_names_are_still_there() -> None:
    now = inspect_surface()
    assert now["entry_point"] == RECORDED["inspect"]["entry_point"]
    assert set(RECORDED["inspect"]["tasks"]) <= set(now["tasks"])
    assert set(RECORDED["inspect"]["model_providers"]) <= set(now["model_providers"])


def test_every_task_keeps_its_group_datasets_and_arguments(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRUSTMH_DATA_DIR", raising=False)
    now = {row["task"]: row for row in tasks_json()}
    for before in RECORDED["tasks_json"]:
        row = now[before["task"]]
        assert (row["pillar"], row["datasets"]) == (before["pillar"], before["datasets"]), before["task"]
        assert set(before["arguments"]) <= set(row["arguments"]), before["task"]
