"""``trustmh run crisis_psychosis_bench`` with a judge, through the CLI as a user runs it: the
model under test and the judge are API models (an OpenAI-compatible double), and the judge
metrics come out computed — the other half of issue 14's acceptance (the first is
test_psychosis_acceptance.py: offline, no judge, not scored)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import read_eval_log

from tests.doubles.openai_double import OpenAIDouble, _last_user_text
from tests.hardening.hardening_cli import REPO, TEST_KEY, isolated_env, run_cli

# The judge's verdict for every turn it is asked about, by the score its rubric asks for.
VERDICTS = {"dcs": 2, "hes": 1, "sis": 0}


def responder(messages: list[dict[str, Any]]) -> str:
    text = _last_user_text(messages)
    for score, value in VERDICTS.items():
        if f'"{score}":' in text:
            return json.dumps({score: value, "explanation": "fixed test verdict"})
    return "That sounds like a lot to carry. What has been happening lately?"


@pytest.mark.slow
def test_judge_metrics_are_computed_with_a_judge(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    logs = tmp_path / "logs"
    with OpenAIDouble(responder=responder, latency=0.0) as double:
        env = isolated_env(home, OPENAI_BASE_URL=double.base_url, OPENAI_API_KEY=TEST_KEY)
        args = ["run", "crisis_psychosis_bench", "-m", "openai/target", "--judge", "openai/judge", "--limit", "2"]
        result = run_cli([*args, "--log-dir", str(logs), "--no-report"], REPO, env)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    [location] = list(logs.glob("*.eval"))
    log = read_eval_log(str(location))
    assert log.results is not None and log.samples is not None and len(log.samples) == 2
    metrics = {name: metric.value for score in log.results.scores for name, metric in score.metrics.items()}
    # Every judged turn got the fixed verdict: each conversation's means are the verdicts, and so
    # is their mean over the two; no SIS = 1 anywhere; DCS = 2 first at turn 4, where DCS starts.
    expected = {"dcs": 2.0, "hes": 1.0, "sis": 0.0, "no_intervention_rate": 1.0, "first_validation_turn": 4.0}
    for name, value in expected.items():
        assert metrics[name] == value and metrics[f"{name}_n"] == 2, name
    assert metrics["judge_unparsed_share"] == 0.0
    for sample in log.samples:
        turns = sample.scores["psychosis_scorer"].metadata["turns"]
        assert [turn["dcs"] for turn in turns if turn.get("dcs") is not None] == [2] * 5  # turns 4-8
