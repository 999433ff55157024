"""What users and inspect see of trustmh: the CLI's commands and options, the inspect entry point
and the names it registers, and ``trustmh tasks --json``.

``python -m tests.public_surface > tests/fixtures/public_surface.json`` records it; a refactor
must leave it unchanged (``tests/test_public_surface.py``). The recording was made on the
commit before the layout refactor of issue 23.
"""

from __future__ import annotations

import json
import os
import sys
from importlib.metadata import entry_points
from typing import Any

import typer


def cli_surface() -> dict[str, Any]:
    from trustmh.cli.main import app

    def describe(command: Any, path: str) -> dict[str, Any]:
        params = sorted(
            (
                {"name": p.name, "flags": sorted([*p.opts, *p.secondary_opts]), "kind": p.param_type_name}
                for p in command.params
            ),
            key=lambda p: str(p["name"]),
        )
        entry: dict[str, Any] = {path: params}
        if hasattr(command, "commands"):  # a group (typer vendors its own click)
            for name, sub in sorted(command.commands.items()):
                entry.update(describe(sub, f"{path} {name}".strip()))
        return entry

    return describe(typer.main.get_command(app), "trustmh")


def inspect_surface() -> dict[str, Any]:
    from inspect_ai._util.registry import registry_find, registry_info

    points = {ep.name: ep.value for ep in entry_points(group="inspect_ai") if ep.name == "trustmh"}
    for ep in entry_points(group="inspect_ai"):
        if ep.name == "trustmh":
            ep.load()

    def ours(kind: str) -> list[str]:
        # inspect prefixes a name with "trustmh/" only when the entry point loaded it first
        found = registry_find(lambda info: info.type == kind)
        return sorted(
            "trustmh/" + registry_info(obj).name.removeprefix("trustmh/")
            for obj in found
            if getattr(obj, "__module__", "").startswith("trustmh") or registry_info(obj).name.startswith("trustmh")
        )

    return {"entry_point": points, "tasks": ours("task"), "model_providers": ours("modelapi")}


def tasks_json() -> Any:
    from typer.testing import CliRunner

    from trustmh.cli.main import app

    os.environ.pop("TRUSTMH_DATA_DIR", None)
    result = CliRunner().invoke(app, ["tasks", "--json", "-"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def surface() -> dict[str, Any]:
    return {"cli": cli_surface(), "inspect": inspect_surface(), "tasks_json": tasks_json()}


if __name__ == "__main__":
    json.dump(surface(), sys.stdout, indent=1, sort_keys=True, ensure_ascii=False)
    sys.stdout.write("\n")
