"""MentalBench-Align's own seven-attribute judge: the prompt is what upstream's
``create_evaluation_prompt`` returns, the settings are its ``generate_response``'s, and both the
bulk judge (``trustmh judge --judge-prompts upstream``) and ``dialogue_mentalbench`` in benchmark
mode send it so."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.event import ModelEvent
from inspect_ai.log import read_eval_log
from inspect_ai.model import get_model
from typer.testing import CliRunner

from tests.doubles.openai_double import OpenAIDouble
from tests.fakes import metrics_of, script
from tests.pillars.crisis.upstream_functions import upstream_function
from trustmh.bulk.judging import judge_params
from trustmh.cli.main import app
from trustmh.dialogue.mentalbench_upstream import UPSTREAM_KEY, upstream_rubric
from trustmh.dialogue.tasks import dialogue_mentalbench
from trustmh.mentalalign.schema import ATTRIBUTES

TRICKY = [
    ('I said "enough" {twice} and nothing changed.', 'Try {this}: breathe "slowly".\n\nThen rest.'),
    ("Sleep is gone.", ""),
]
VERDICT = json.dumps({**{a: 4 for a in ATTRIBUTES}, "Overall": 4, "Explanation": "Solid."})


@pytest.mark.parametrize(("context", "response"), TRICKY)
def test_prompt_is_what_upstreams_function_returns(shared_data: Path, context: str, response: str) -> None:
    upstream = upstream_function(shared_data / UPSTREAM_KEY, "create_evaluation_prompt")
    rubric, _ = upstream_rubric(str(shared_data))
    assert rubric.verbatim is not None
    assert rubric.verbatim.prompt(context, response) == upstream(context, response)


def test_settings_are_upstreams(shared_data: Path) -> None:
    rubric, _ = upstream_rubric(str(shared_data))
    assert rubric.verbatim is not None
    assert (rubric.verbatim.temperature, rubric.verbatim.max_tokens, rubric.verbatim.max_attempts) == (0.7, 512, 1)
    params = judge_params(rubric)
    assert (params.temperature, params.max_tokens, params.seed) == (0.7, 512, None)


def test_bulk_judge_sends_upstreams_prompt(tmp_path: Path, shared_data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-mentalbench-0000")
    responses = tmp_path / "responses.csv"
    with responses.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows([["context", "response"], *TRICKY[:1]])
    seen: list[list[dict[str, Any]]] = []

    def responder(messages: list[dict[str, Any]]) -> str:
        seen.append(messages)
        return VERDICT

    out = tmp_path / "judged.csv"
    with OpenAIDouble(responder=responder) as server:
        result = CliRunner().invoke(
            app,
            [
                "judge", "--responses", str(responses), "--judge", "openai/judge", "-o", str(out),
                "--judge-prompts", "upstream", "--data-dir", str(shared_data), "--base-url", server.base_url,
                "--cache", str(tmp_path / "cache.sqlite"), "--no-progress",
            ],
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    upstream = upstream_function(shared_data / UPSTREAM_KEY, "create_evaluation_prompt")
    assert seen == [[{"role": "user", "content": upstream(*TRICKY[0])}]]
    with out.open(encoding="utf-8", newline="") as handle:
        [row] = list(csv.DictReader(handle))
    assert json.loads(row["judge_response_original"])["Guidance"] == 4


def test_bad_judge_prompts_option_is_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["judge", "--responses", str(tmp_path / "r.csv"), "--judge", "openai/j", "-o", str(tmp_path / "o.csv"),
              "--judge-prompts", "paper"],
    )  # fmt: skip
    assert result.exit_code == 2 and "--judge-prompts must be trustmh or upstream" in result.output


@pytest.mark.slow
def test_benchmark_task_judges_with_upstreams_prompt(tmp_path: Path, shared_data: Path) -> None:
    task = dialogue_mentalbench(source="benchmark", data_dir=str(shared_data))
    assert task.metadata is not None and task.metadata["judge_prompts"] == "upstream"
    with OpenAIDouble(responder=lambda messages: VERDICT) as server:
        judge = get_model("openai/mb-judge", base_url=server.base_url, api_key="sk-test-mb-0000", responses_api=False)
        [log] = eval(
            task,
            model=script("mb-target", ["Take one small step today."]),
            model_roles={"judge": judge},
            limit=1,
            log_dir=str(tmp_path),
            display="none",
        )
    log = read_eval_log(log.location, resolve_attachments=True)
    [sample] = log.samples
    [call] = [e for e in sample.events if isinstance(e, ModelEvent) and e.model.endswith("mb-judge")]
    upstream = upstream_function(shared_data / UPSTREAM_KEY, "create_evaluation_prompt")
    assert [m.text for m in call.input] == [upstream(sample.metadata["context"], "Take one small step today.")]
    assert call.config.temperature == 0.7 and call.config.max_tokens == 512
    assert metrics_of(log)["guidance"] == 4.0
