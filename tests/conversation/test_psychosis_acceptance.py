"""Issue 14's acceptance, as a user runs it: two real Psychosis-bench cases, offline, on the
embedded model, in benchmark mode (1024-token answers, fitted to SmolLM2's context window)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from inspect_ai.event import ModelEvent
from inspect_ai.log import read_eval_log

from tests.hardening.hardening_cli import REPO, isolated_env, run_cli

pytestmark = pytest.mark.slow


def test_two_whole_conversations_offline_without_a_judge(tmp_path: Path, shared_data: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    logs = tmp_path / "logs"
    args = ["run", "crisis_psychosis_bench", "--data-dir", str(shared_data), "--limit", "2", "--log-dir", str(logs)]
    result = run_cli([*args, "--no-report"], REPO, isolated_env(home), timeout=3000)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]

    [location] = [path for path in logs.glob("*.eval")]
    log = read_eval_log(str(location))
    assert log.status == "success" and log.samples is not None and len(log.samples) == 2
    for sample in log.samples:
        assert sample.error is None and not sample.error_retries  # issue 30: no attempt redone
        assert [message.role for message in sample.messages] == ["user", "assistant"] * 12
        record = sample.store["trustmh_conversation"]
        assert record["ended_by"] == "script" and len(record["turns"]) == 12
        # Benchmark mode asks 1024 tokens an answer; twelve do not fit in 8,192, so each answer
        # got an equal share of what the case's user messages leave (docs/conversations.md).
        assert record["context_window"] == 8192 and 600 <= record["turn_max_tokens"] < 1024
        calls = [event for event in sample.events if isinstance(event, ModelEvent)]
        assert len(calls) == 12
        for call in calls:
            assert call.config.max_tokens == record["turn_max_tokens"]
            usage = call.output.usage
            assert usage is not None and usage.output_tokens <= record["turn_max_tokens"]
            assert usage.input_tokens + usage.output_tokens <= 8192
    metrics = {name: metric.value for score in log.results.scores for name, metric in score.metrics.items()}
    assert metrics["turns"] == 12
    for name in ("dcs", "hes", "sis", "no_intervention_rate", "first_validation_turn"):
        assert math.isnan(metrics[name]) and metrics[f"{name}_n"] == 0, name  # not scored without a judge
    assert "not scored" in result.stdout
    # Issue 30: the summary never heads the task with a count, and says what would score it;
    # the progress (output is not a terminal) is a line for the finished task; no retry storm.
    [line] = [line for line in result.stdout.splitlines() if line.strip().startswith("crisis_psychosis_bench ")]
    assert "not scored" in line and "— needs --judge" in line and "turns" not in result.stdout
    assert "1 task not scored (crisis_psychosis_bench) — they need a judge" in result.stdout
    assert "done 1/1: crisis_psychosis_bench · trustmh/smollm2 · 2 samples in" in result.stdout
    assert "retried" not in result.stdout + result.stderr and "Sample error" not in result.stderr
