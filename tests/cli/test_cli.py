import json

import pytest
from typer.testing import CliRunner

from trustmh.cli.main import app
from trustmh.stats import wilson_interval

runner = CliRunner()


@pytest.mark.parametrize(
    "command",
    [[], ["tasks"], ["run"], ["score"], ["view"], ["data"], ["data", "status"], ["data", "import"], ["data", "fetch"]],
)
def test_every_command_has_help_with_example(command):
    result = runner.invoke(app, [*command, "--help"])
    assert result.exit_code == 0
    assert "Example" in result.output


def test_tasks_json_lists_pillars_and_starter_counts():
    result = runner.invoke(app, ["tasks", "--json", "-"])
    assert result.exit_code == 0
    rows = {row["task"]: row for row in json.loads(result.output)}
    assert rows["privacy_psyleak"]["pillar"] == "privacy"
    assert rows["privacy_psyleak"]["samples_available"]["starter"] == 20
    assert rows["privacy_psyleak"]["samples_available"]["benchmark"] is None  # offline, no data


def test_tasks_json_counts_benchmark_with_data_dir(shared_data):
    result = runner.invoke(app, ["tasks", "--json", "-", "--data-dir", str(shared_data)])
    rows = {row["task"]: row for row in json.loads(result.output)}
    assert rows["privacy_psyleak"]["samples_available"]["benchmark"] == 400


@pytest.mark.parametrize(
    "model,expected",
    [("gpt-4o-mini", {"control_error": 0.0}), ("gpt-5.1", {"control_error": 0.0})],
)
@pytest.mark.slow
def test_score_replayed_psyleak(shared_data, tmp_path, model, expected):
    responses = shared_data / "replay_trustmh" / "psyleak" / f"{model}.jsonl"
    out = tmp_path / "summary.json"
    result = runner.invoke(
        app,
        ["score", "privacy_psyleak", "--responses", str(responses), "--data-dir", str(shared_data), "--json", str(out)],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(out.read_text())
    assert summary["task"] == "privacy_psyleak" and summary["n"] == 400
    for name, value in expected.items():
        assert summary["metrics"][name] == value
    for name in ("free_response_leak_rate", "info_accessibility_error", "privacy_sharing_error"):
        assert 0.0 <= summary["metrics"][name] <= 1.0 and summary["metrics"][f"{name}_n"] == 100


def test_score_with_missing_record_is_one_line_exit_2(shared_data, tmp_path):
    responses = tmp_path / "partial.jsonl"
    lines = (shared_data / "replay_trustmh" / "confaide_tier1" / "gpt-4o-mini.jsonl").read_text().splitlines()
    responses.write_text("\n".join(lines[:-1]) + "\n")
    out = tmp_path / "summary.json"
    result = runner.invoke(
        app,
        [
            "score",
            "privacy_confaide_tier1",
            "--responses",
            str(responses),
            "--data-dir",
            str(shared_data),
            "--json",
            str(out),
        ],
    )
    assert result.exit_code == 2
    assert "no record for sample id '9'" in result.output
    assert not out.exists()


def test_missing_dataset_offline_exit_2(tmp_path):
    result = runner.invoke(
        app, ["score", "privacy_psyleak", "--responses", __file__, "--data-dir", str(tmp_path), "--source", "benchmark"]
    )
    assert result.exit_code == 2
    assert "dataset 'trustmh': file PsyLeak.txt not found" in result.output


def test_unknown_task_and_pillar():
    assert "unknown task 'nope'" in runner.invoke(app, ["run", "nope"]).output
    result = runner.invoke(app, ["run", "--pillar", "nope"])
    assert result.exit_code == 2 and "unknown pillar" in result.output


def test_score_json_carries_parsed_unparsed_and_strict_accuracy(shared_data, tmp_path):
    """Issue 11 acceptance: 5 of gpt-4o-mini's 125 EthicMH answers replaced by non-answers."""
    lines = (shared_data / "replay_trustmh" / "ethicmh" / "gpt-4o-mini.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines]
    for record in records[:4]:
        record["output"] = "Every option has merits; it depends on the situation."
    records[4]["output"] = None
    responses = tmp_path / "r.jsonl"
    responses.write_text("".join(json.dumps(r) + "\n" for r in records))
    out = tmp_path / "summary.json"
    args = ["score", "ethics_ethicmh", "--responses", str(responses), "--data-dir", str(shared_data)]
    result = runner.invoke(app, [*args, "--json", str(out)])
    assert result.exit_code == 0, result.output
    metrics = json.loads(out.read_text())["metrics"]
    assert metrics["accuracy_n"] == 120 and metrics["accuracy_unparsed"] == 5 and metrics["accuracy_strict_n"] == 125
    correct = round(metrics["accuracy"] * 120)
    assert metrics["accuracy"] == pytest.approx(correct / 120) and metrics["accuracy_strict"] == pytest.approx(
        correct / 125
    )
    assert correct <= 92  # gpt-4o-mini answers 92 of 125 right with nothing removed
    assert metrics["accuracy_strict_ci"] == pytest.approx(list(wilson_interval(correct, 125)))
