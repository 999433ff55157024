"""`trustmh run --judge A --judge B`: a judge panel on a real task, with the stability probe."""

from __future__ import annotations

import json
import re
from pathlib import Path

import krippendorff
import numpy as np
import pytest
from inspect_ai.log import list_eval_logs, read_eval_log
from typer.testing import CliRunner

from tests.fakes import script, write_jsonl
from trustmh.cli.main import app
from trustmh.data.starter import load_starter
from trustmh.scoring.judge_record import FINGERPRINT_KEY
from trustmh.scoring.results import score_summary

runner = CliRunner()
STARTER = "trustmh.pillars.crisis.starter"
LIMIT = 4


def rating_judge(table: dict[str, int]):
    """Rates a reply by the first keyword of ``table`` it contains."""

    def reply(prompt: str) -> str:
        text = re.search(r"## Support assistant's reply\n(.*?)\n<<<END", prompt, re.DOTALL)
        found = next((v for k, v in table.items() if text and k in text.group(1)), 3)
        return json.dumps({"appropriateness": found})

    return reply


def run_panel(tmp_path: Path, *extra: str):
    records = load_starter(STARTER, "escalation.jsonl")[:LIMIT]
    answers = ["call 988 now", "HARMFUL advice", "I hear you", "call 988, HARMFUL"]
    responses = write_jsonl(
        tmp_path / "r.jsonl", [{"id": r["id"], "output": a} for r, a in zip(records, answers, strict=True)]
    )
    judge_a = script("cli-panel-a", [rating_judge({"HARMFUL": 1, "988": 5})])
    judge_b = script("cli-panel-b", [rating_judge({"988": 4, "HARMFUL": 2})])
    args = ["run", "crisis_escalation", "-m", "trustmh/replay/x", "-M", f"responses={responses}"]
    args += ["--judge", judge_a, "--judge", judge_b, "--limit", str(LIMIT), "--log-dir", str(tmp_path / "logs")]
    return runner.invoke(app, [*args, "--no-report", *extra])


def test_run_with_two_judges_and_repeats(tmp_path: Path):
    result = run_panel(tmp_path, "--judge-repeats", "1")
    assert result.exit_code == 0, result.output
    (info,) = list_eval_logs(str(tmp_path / "logs"))
    log = read_eval_log(info)
    metrics = score_summary(log)["metrics"]
    a, b = [5, 1, 3, 1], [4, 2, 3, 4]  # "call 988, HARMFUL": A sees HARMFUL first, B sees 988 first
    assert metrics["appropriateness_mean"] == pytest.approx(np.mean([(x + y) / 2 for x, y in zip(a, b, strict=True)]))
    alpha = krippendorff.alpha(reliability_data=np.array([a, b]), level_of_measurement="interval")
    assert metrics["appropriateness_judge_alpha"] == pytest.approx(alpha)
    assert metrics["appropriateness_judge_alpha_n"] == LIMIT
    assert metrics["appropriateness_judge_changed"] == 0 and metrics["appropriateness_judge_changed_n"] == 2 * LIMIT
    assert "appropriateness_judge_alpha_ci" in metrics
    fingerprint = next(iter(log.samples[0].scores.values())).metadata[FINGERPRINT_KEY]
    assert fingerprint["judges"] == ["scripted/cli-panel-a", "scripted/cli-panel-b"] and fingerprint["repeats"] == 1
    assert set(log.eval.model_roles) == {"judge", "judge_2"}


def test_a_judge_given_twice_is_refused(tmp_path: Path):
    result = runner.invoke(app, ["run", "crisis_escalation", "--judge", "openai/x", "--judge", "openai/x"])
    assert result.exit_code == 2 and "given twice" in result.output


def test_a_second_run_in_one_process_uses_its_own_judge():
    """inspect's get_model(name, role=...) returns a role already bound in the context (a previous
    run's judge) instead of ``name``; the run's roles are built outside that context."""
    import inspect_ai.model._model as inspect_model

    from trustmh.run.models import with_redacting_models

    def roles(judge: str) -> dict:
        return with_redacting_models({"model": [], "model_roles": {"judge": judge}})["model_roles"]

    token = inspect_model._model_roles.set(roles(script("previous-run-judge", ["{}"])))
    try:
        assert str(roles(script("this-run-judge", ["{}"]))["judge"]) == "scripted/this-run-judge"
    finally:
        inspect_model._model_roles.reset(token)
