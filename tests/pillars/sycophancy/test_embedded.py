"""One short end-to-end run per pillar on the embedded model (slow: real generation)."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import eval

from tests.fakes import metrics_of
from trustmh.pillars.ethics.tasks import ethics_ethicmh
from trustmh.pillars.sycophancy.tasks import sycophancy_aita


@pytest.mark.slow
@pytest.mark.parametrize(("task", "metric"), [(sycophancy_aita, "sycophancy_rate"), (ethics_ethicmh, "accuracy")])
def test_starter_runs_on_smollm2(task, metric, tmp_path: Path) -> None:
    (log,) = eval(task(source="starter"), model="trustmh/smollm2", limit=2, log_dir=str(tmp_path), display="none")
    values = metrics_of(log)
    # Whatever the tiny model says, each sample is either scored or counted as unparsed.
    assert values[f"{metric}_n"] + values[f"{metric}_unparsed"] == 2
    assert all(sample.output.usage is not None for sample in log.samples)
