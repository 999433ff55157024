"""Unparsed answers stay unparsed under every epoch reducer (issue 11, item 1).

Before the fix, an eval-level reducer (``--epochs-reducer mean``) replaced trustmh's own and
inspect turned each unparsed answer into 0.0: accuracy 0.5 over n = 20, unparsed 0.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inspect_ai import Epochs, eval

from tests.fakes import write_jsonl
from trustmh.data.starter import load_starter
from trustmh.pillars.ethics.tasks import ethics_ethicmh

STARTER = load_starter("trustmh.pillars.ethics.starter", "ethicmh.jsonl")


def ethics_replay(path: Path) -> Path:
    """10 right, 5 wrong, 5 naming no option (one of them no answer at all)."""
    records = []
    for index, item in enumerate(STARTER[:20]):
        if index < 10:
            output: str | None = json.dumps({"choice": item["gold"], "reasoning": "r"})
        elif index < 15:
            output = "I would choose option " + ("A" if item["gold"] != "A" else "B")
        else:
            output = None if index == 15 else "It depends on many things."
        records.append({"id": item["id"], "output": output})
    return write_jsonl(path, records)


def accuracy_metrics(log) -> dict[str, float]:
    return {
        name: metric.value
        for score in log.results.scores
        for name, metric in score.metrics.items()
        if name.startswith("accuracy") and "[" not in name
    }


@pytest.mark.parametrize("reducer", [None, "mean", "median", "mode", "max", "pass_at_1", "pass_at_2", "at_least_1"])
def test_ethics_unparsed_survives_the_epochs_reducer(reducer: str | None, tmp_path: Path) -> None:
    epochs = Epochs(2, reducer) if reducer else None
    (log,) = eval(
        ethics_ethicmh(source="starter", data_dir=None),
        model="trustmh/replay",
        model_args={"responses": str(ethics_replay(tmp_path / "r.jsonl"))},
        epochs=epochs,
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success"
    if reducer:
        assert log.eval.config.epochs_reducer == [reducer]
    values = accuracy_metrics(log)
    assert values["accuracy"] == pytest.approx(10 / 15)
    assert values["accuracy_n"] == 15 and values["accuracy_unparsed"] == 5
    assert values["accuracy_strict"] == pytest.approx(10 / 20) and values["accuracy_strict_n"] == 20
    assert values["accuracy_strict_ci_low"] < 0.5 < values["accuracy_strict_ci_high"]


@pytest.mark.parametrize("reducer", ["mode", "mean"])
def test_crisis_classification_under_a_label_keeping_and_a_numeric_reducer(reducer: str, tmp_path: Path) -> None:
    from trustmh.pillars.crisis.tasks import crisis_classification

    task = crisis_classification(source="starter")
    outputs = {}
    for index, sample in enumerate(task.dataset):
        outputs[str(sample.id)] = "unclear" if index < 3 else str(sample.target)  # 3 unparsed, 18 right
    responses = write_jsonl(tmp_path / "r.jsonl", [{"id": k, "output": v} for k, v in outputs.items()])
    (log,) = eval(
        task,
        model="trustmh/replay",
        model_args={"responses": str(responses)},
        epochs=Epochs(2, reducer),
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    values = {name: m.value for score in log.results.scores for name, m in score.metrics.items()}
    assert values["accuracy"] == 1.0 and values["accuracy_n"] == 18 and values["accuracy_unparsed"] == 3
    assert values["accuracy_strict"] == pytest.approx(18 / 21) and values["unparsed"] == 3
    if reducer == "mode":  # labels kept: the class metrics are scored
        assert values["macro_f1"] == 1.0 and values["macro_f1_n"] == 18 and values["macro_f1_unparsed"] == 3
    else:  # labels averaged into numbers: class metrics not scored rather than wrong
        assert values["macro_f1_n"] == 0


@pytest.mark.parametrize("reducer", ["mean", "median", "mode", "max", "pass_at_2"])
def test_trustmh_run_with_an_epochs_reducer_keeps_unparsed(reducer: str, tmp_path: Path) -> None:
    from inspect_ai.log import list_eval_logs, read_eval_log
    from typer.testing import CliRunner

    from trustmh.cli.main import app

    responses = ethics_replay(tmp_path / "r.jsonl")
    args = ["run", "ethics_ethicmh", "-m", "trustmh/replay", "-M", f"responses={responses}", "--source", "starter"]
    args += ["--epochs", "2", "--epochs-reducer", reducer, "--no-report", "--log-dir", str(tmp_path / "logs")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    (log_file,) = list_eval_logs(str(tmp_path / "logs"))
    log = read_eval_log(log_file)
    assert log.eval.config.epochs == 2 and log.eval.config.epochs_reducer == [reducer]
    values = accuracy_metrics(log)
    assert values["accuracy"] == pytest.approx(10 / 15) and values["accuracy_unparsed"] == 5
    assert values["accuracy_strict"] == pytest.approx(0.5) and values["accuracy_strict_n"] == 20


def test_trustmh_run_refuses_an_unknown_reducer_in_one_line(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from trustmh.cli.main import app

    args = ["run", "ethics_ethicmh", "--epochs-reducer", "average", "--log-dir", str(tmp_path / "logs")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert "unknown reducer 'average'; use trustmh_mean, mean, median" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "logs").exists()
