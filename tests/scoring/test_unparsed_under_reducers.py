"""Unparsed answers stay unparsed under every epoch reducer (issue 11, item 1).

Before the fix, an eval-level reducer (``--epochs-reducer mean``) replaced trustmh's own and
inspect turned each unparsed answer into 0.0: accuracy 0.5 over n = 20, unparsed 0.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inspect_ai import Epochs, eval

from tests.helpers import write_jsonl
from trustmh.pillars.ethics.tasks import ethics_ethicmh
from trustmh.tasking import load_starter

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
