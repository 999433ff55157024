"""What a new user meets first: the task list says what its counts are, a mistyped data folder or a
broken chatbot config is one line and exit 2 before anything is priced, a dry run says its suite."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from trustmh.cli.main import app

runner = CliRunner()


def test_tasks_say_what_starter_and_benchmark_count_and_keep_grouped_metric_names() -> None:
    result = runner.invoke(app, ["tasks"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "starter: items shipped with trustmh, what `trustmh run` runs without --data-dir" in text
    assert "`trustmh data status --data-dir DATA`" in text
    listed = json.loads(runner.invoke(app, ["tasks", "--json", "-"]).output)
    (overescalation,) = [task for task in listed if task["task"] == "crisis_overescalation"]
    grouped = [metric for metric in overescalation["metrics"] if "[" in metric]
    assert grouped and all(metric in text for metric in grouped)  # "[turns=*]" is not eaten as markup


@pytest.mark.parametrize("command", [["data", "status"], ["reproduce"]], ids=" ".join)
def test_a_missing_data_folder_is_one_line_and_exit_2(command: list[str], tmp_path: Path) -> None:
    result = runner.invoke(app, [*command, "--data-dir", str(tmp_path / "typo")])
    assert result.exit_code == 2
    (line,) = result.output.strip().splitlines()
    assert line == f"error: --data-dir {tmp_path / 'typo'}: no such folder (a folder with one subfolder per dataset)"


def test_a_dry_run_reads_the_chatbot_config_and_names_its_suite(tmp_path: Path) -> None:
    broken = tmp_path / "bot.yaml"
    broken.write_text("url: http://localhost:1/x\nbody: {unclosed\n")
    command = ["run", "crisis_cssrs", "-m", "trustmh/http/bot", "--dry-run", "--log-dir", str(tmp_path / "logs")]
    result = runner.invoke(app, [*command, "-M", f"config={broken}"])
    assert result.exit_code == 2
    (line,) = result.output.strip().splitlines()
    assert line.startswith(f"error: {broken}:line 3: invalid YAML or JSON")
    good = tmp_path / "good.yaml"
    good.write_text('url: http://localhost:1/x\nbody: {"messages": "{{messages}}"}\nreply: choices.0.message.content\n')
    result = runner.invoke(app, [*command, "-M", f"config={good}"])
    assert result.exit_code == 0, result.output
    assert "(1 task, starter suite; --data-dir DATA for the benchmarks)" in result.output
    assert not (tmp_path / "logs").exists()
