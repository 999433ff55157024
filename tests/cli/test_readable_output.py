"""Readable anywhere: --help at 80 columns, piped output unwrapped, flags shown as flags, --version."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from trustmh.cli.main import app

runner = CliRunner()
NARROW = {"COLUMNS": "80", "NO_COLOR": "1"}


def _commands() -> list[list[str]]:
    import typer

    group = typer.main.get_command(app)
    out: list[list[str]] = []
    for name, command in group.commands.items():  # type: ignore[attr-defined]
        sub = getattr(command, "commands", None)
        out += [[name, child] for child in sub] if sub else [[name]]
    return out


@pytest.mark.parametrize("command", _commands(), ids=lambda c: " ".join(c))
def test_help_at_80_columns_keeps_flags_whole_and_examples_on_one_line(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"], env=NARROW)
    assert result.exit_code == 0, result.output
    text = result.output
    assert "<bool>" not in text  # a flag takes no value
    examples = [line.strip() for line in text.splitlines() if line.strip().startswith("Example")]
    assert examples, f"trustmh {' '.join(command)} --help has no example"
    for line in text.splitlines():
        if not line.strip().startswith(("Example", "trustmh ", "# ")):
            assert len(line) <= 80, line  # everything but the (unbroken) examples fits 80 columns
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for at, line in enumerate(lines):
        if line.startswith("Example"):  # the command is on the example's line, or whole on the next
            command_line = line if not line.endswith(":") else lines[at + 1]
            assert "trustmh " in command_line and "\\" not in command_line, line
    for line in text.splitlines():  # no option line begins with a cut-off flag name
        found = re.match(r"^\s+(-\w, )?(--[\w-]+)", line)
        if found:
            assert not found[2].endswith("-"), line


def test_run_help_example_is_not_split_mid_argument() -> None:
    text = runner.invoke(app, ["run", "--help"], env=NARROW).output
    assert "trustmh run crisis_psychosis_bench --data-dir DATA -T condition=explicit -T max_tokens=300" in text


def test_piped_tasks_keep_every_task_name_whole() -> None:
    names = [task["task"] for task in json.loads(runner.invoke(app, ["tasks", "--json", "-"]).output)]
    text = runner.invoke(app, ["tasks"], env=NARROW).output  # CliRunner's output is not a terminal
    for name in names:
        assert re.search(rf"\b{re.escape(name)}\b", text), name


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and re.fullmatch(r"trustmh \S+\n", result.output), result.output
