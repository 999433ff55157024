"""Sampling settings each provider's API takes (trustmh.bulk.sampling): OpenAI's reasoning models
get ``max_completion_tokens`` and no temperature, as they demand, through both the direct and
the batch path; the user is told which models sample at their own setting."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.bulk.cli import common, generate, invoke, judge, read_csv
from tests.doubles.batch_double import BatchDouble
from tests.doubles.openai_double import OpenAIDouble
from trustmh.bulk.request import GenerationParams
from trustmh.bulk.sampling import openai_params, openai_params_json, openai_reasoning_model, unsent_sampling_notice


@pytest.mark.parametrize(
    ("name", "reasoning"),
    [
        ("o1", True), ("o1-preview", True), ("o3-mini", True), ("o4-mini-2025-04-16", True),
        ("gpt-5", True), ("gpt-5-mini", True), ("gpt-5.1-mini", True), ("gpt-6", True), ("openai/gpt-5", True),
        ("gpt-4o", False), ("gpt-4o-mini", False), ("gpt-4.1-mini", False), ("gpt-3.5-turbo", False),
        ("olmo2", False), ("Qwen/Qwen3-32B", False), ("omni-moderation-latest", False), ("gpt-5o", False),
    ],
)  # fmt: skip
def test_which_openai_models_are_reasoning_models(name: str, reasoning: bool) -> None:
    assert openai_reasoning_model(name) is reasoning


def test_reasoning_models_get_max_completion_tokens_and_no_temperature() -> None:
    params = GenerationParams(max_tokens=512, temperature=0.0, top_p=0.9, seed=0)
    assert openai_params("gpt-5-mini", params) == {"max_completion_tokens": 512, "seed": 0}
    assert openai_params("gpt-4o", params) == {"max_tokens": 512, "temperature": 0.0, "top_p": 0.9, "seed": 0}
    assert json.loads(openai_params_json("o3-mini", params)) == {"max_completion_tokens": 512, "seed": 0}
    assert openai_params_json("gpt-4o", params) == params.canonical_json()


def test_the_notice_names_the_models_that_sample_at_their_own_setting() -> None:
    assert unsent_sampling_notice(["openai/gpt-4o", "trustmh/smollm2", "openai/olmo2"]) is None
    notice = unsent_sampling_notice(["openai/gpt-4o", "openai/gpt-5-mini", "anthropic/claude-x"]) or ""
    assert "openai/gpt-5-mini, anthropic/claude-x:" in notice and "gpt-4o" not in notice


def test_the_double_refuses_max_tokens_from_a_reasoning_model(tmp_path: Path, tiny_csv: Path, fake_key: str) -> None:
    """What the fix is for: the request trustmh sent before is refused (as OpenAI refuses it)."""
    import httpx

    with OpenAIDouble() as server:
        body = {"model": "gpt-5-mini", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 5}
        refused = httpx.post(f"{server.base_url.rstrip('/')}/chat/completions", json=body)
        accepted = httpx.post(
            f"{server.base_url.rstrip('/')}/chat/completions",
            json={**{k: v for k, v in body.items() if k != "max_tokens"}, "max_completion_tokens": 5},
        )
    assert refused.status_code == 400 and refused.json()["error"]["param"] == "max_tokens"
    assert accepted.status_code == 200


def test_generate_and_judge_with_a_reasoning_model(tmp_path: Path, tiny_csv: Path, fake_key: str) -> None:
    out, verdicts = tmp_path / "responses.csv", tmp_path / "verdicts.csv"
    with OpenAIDouble() as server:
        code, output = invoke(*generate(tiny_csv, out, model="openai/gpt-5-mini"), *common(server.base_url, tmp_path))
        judged, judge_output = invoke(
            *judge(tiny_csv, verdicts, judge_model="openai/o3-mini"), *common(server.base_url, tmp_path)
        )
        seen = list(server.state.settings_seen)
    assert code == 0, output
    assert judged == 0, judge_output
    assert all(row["gpt-5-mini"].startswith("I hear you.") for row in read_csv(out))
    assert "openai/gpt-5-mini: the provider's API takes no temperature" in output
    assert "openai/o3-mini: the provider's API takes no temperature" in judge_output
    assert seen and all("max_completion_tokens" in s and "temperature" not in s for s in seen)


def test_a_reasoning_model_through_the_batch_api(tmp_path: Path, tiny_csv: Path, fake_key: str) -> None:
    out = tmp_path / "responses.csv"
    with BatchDouble() as api:
        code, output = invoke(
            *generate(tiny_csv, out, model="openai/gpt-5-mini"),
            *common(api.base_url, tmp_path),
            *["--batch", "10", "--batch-poll", "0.1"],
        )
        created = api.state.batches_created
    assert code == 0, output
    assert created == 1 and all(row["gpt-5-mini"].startswith("I hear you.") for row in read_csv(out))
