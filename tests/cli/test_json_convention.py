"""One CLI convention: `--json FILE|-` in every command ("-" = stdout); the old switch form still works."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import typer
from typer.testing import CliRunner

from tests.conftest import REPO_ROOT
from trustmh.cli.common import json_switch_as_stdout
from trustmh.cli.main import app

runner = CliRunner()


def _json_options() -> dict[str, typer.core.click.Option]:
    group = typer.main.get_command(app)
    found = {}
    for name, command in group.commands.items():  # type: ignore[attr-defined]
        for leaf_name, leaf in (getattr(command, "commands", None) or {name: command}).items():
            path = name if leaf is command else f"{name} {leaf_name}"
            for param in leaf.params:
                if "--json" in param.opts:
                    found[path] = param
    return found


def test_every_json_option_takes_a_file_or_dash() -> None:
    options = _json_options()
    assert {"tasks", "reproduce", "data status", "align", "judge-check", "report", "gate", "score"} <= set(options)
    for command, option in options.items():
        assert not option.is_flag, f"trustmh {command}: --json is a switch, not FILE|-"
        assert "stdout" in (option.help or ""), f"trustmh {command}: --json help does not say '-' is stdout"


@pytest.mark.parametrize(
    "args", [["tasks"], ["tasks", "--protocol", "ethics_ethicmh"], ["data", "status"]], ids=" ".join
)
def test_json_dash_prints_valid_json(args: list[str]) -> None:
    result = runner.invoke(app, [*args, "--json", "-"])
    assert result.exit_code == 0, result.output
    json.loads(result.stdout)


def test_the_old_switch_form_means_stdout_with_a_deprecation_line() -> None:
    assert json_switch_as_stdout(["tasks", "--json"]) == ["tasks", "--json", "-"]
    assert json_switch_as_stdout(["tasks", "--json", "--data-dir", "d"]) == ["tasks", "--json", "-", "--data-dir", "d"]
    assert json_switch_as_stdout(["align", "--json", "out.json"]) == ["align", "--json", "out.json"]
    assert json_switch_as_stdout(["tasks", "--json", "-"]) == ["tasks", "--json", "-"]
    result = subprocess.run(
        [sys.executable, "-m", "trustmh", "tasks", "--json"],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(REPO_ROOT / "src"), "PATH": "/usr/bin:/bin", "HOME": str(REPO_ROOT)},
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    json.loads(result.stdout)  # stdout stays JSON: the note is on stderr, one line
    assert result.stderr.strip().splitlines() == [
        "note: --json without FILE is deprecated and will be removed; use --json - (stdout) or --json FILE"
    ]


def test_judge_is_the_judge_model_and_judge_model_a_deprecated_alias(capsys: pytest.CaptureFixture[str]) -> None:
    from trustmh.cli.common import judge_option
    from trustmh.core.errors import UserError

    assert judge_option("openai/j", None) == "openai/j" and capsys.readouterr().err == ""
    assert judge_option(None, "openai/j") == "openai/j"
    assert "--judge-model is deprecated and will be removed; use --judge MODEL" in capsys.readouterr().err
    with pytest.raises(UserError, match="--judge MODEL is required"):
        judge_option(None, None)


def test_batch_means_what_it_means_in_run() -> None:
    from trustmh.cli.bulk_options import DEFAULT_BATCH_SIZE, batch_size

    assert batch_size(None) is None
    assert batch_size("2000") == 2000 and batch_size("all") == DEFAULT_BATCH_SIZE and batch_size("judge=500") == 500
    for bad in ("0", "model=10,judge=20", "lots", "60000"):
        with pytest.raises(typer.BadParameter):
            batch_size(bad)
    result = runner.invoke(app, ["judge", "--responses", "r.csv", "--judge", "openai/j", "-o", "o.csv", "--batch", "x"])
    assert result.exit_code == 2 and "--batch" in result.output
