"""One short end-to-end run per pillar on the real embedded model (slow: a few seconds each)."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import eval

from trustmh.pillars.fairness.tasks import fairness_esconv
from trustmh.pillars.safety.tasks import safety_jailbreak_generated


@pytest.mark.slow
@pytest.mark.parametrize("make_task", [safety_jailbreak_generated, fairness_esconv])
def test_embedded_model_runs(make_task, tmp_path: Path) -> None:
    [log] = eval(
        make_task(source="starter", max_tokens=16),
        model="trustmh/smollm2",
        limit=2,
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success", log.error
    assert len(log.samples) == 2
    assert all(sample.scores for sample in log.samples)
