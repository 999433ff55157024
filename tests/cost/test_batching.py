"""``trustmh run --batch``: parsing, which providers batch, and the eval-set options it sets."""

from __future__ import annotations

import pytest

from trustmh.core.errors import UserError
from trustmh.run.batching import parse_batch, plan_batch
from trustmh.run.runner import DEFAULT_TIMEOUT, eval_set_options


@pytest.mark.parametrize(
    "spec,expected",
    [
        ("all", {"model": True, "judge": True}),
        ("1000", {"model": 1000, "judge": 1000}),
        ("judge", {"judge": True}),
        ("model=200,judge=500", {"model": 200, "judge": 500}),
    ],
)
def test_parse_batch(spec, expected):
    assert parse_batch(spec) == expected


@pytest.mark.parametrize("spec", ["yes", "judge=0", "judge=x", "user"])
def test_bad_batch_spec_is_a_user_error(spec):
    with pytest.raises(UserError, match="--batch"):
        parse_batch(spec)


def test_openai_compatible_servers_and_local_models_are_not_batched(monkeypatch):
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    plan = plan_batch("all", ["openai/gpt-4o"], "anthropic/claude-sonnet-4-5")
    assert (plan.model, plan.judge, plan.notices) == (True, True, [])

    monkeypatch.setenv("OPENAI_BASE_URL", "http://localhost:8000/v1")
    plan = plan_batch("model=50,judge=10", ["openai/my-vllm-model", "anthropic/claude-3-5-haiku"], "vllm/judge")
    assert plan.model is None and plan.judge is None  # an openai/ model on a server would try /v1/batches
    text = " ".join(plan.notices)
    assert "openai/my-vllm-model: no batching (an OpenAI-compatible server" in text
    assert "judge vllm/judge: no batching (provider 'vllm' has no batch API)" in text

    plan = plan_batch("all", ["trustmh/smollm2", "anthropic/claude-3-5-haiku"], None)
    assert plan.model is True and "trustmh/smollm2: no batching" in plan.notices[0]


def test_batched_run_options(monkeypatch):
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-batching-0000")
    plan = plan_batch("judge=500", ["openai/gpt-4o"], "openai/gpt-4o-mini")
    options = eval_set_options(["openai/gpt-4o"], judge="openai/gpt-4o-mini", batch=plan)
    assert "batch" not in options  # the model under test is not batched
    judge = options["model_roles"]["judge"]
    assert judge.config.batch == 500
    assert options["timeout"] is None  # inherited by the judge: a batch may take hours
    assert options["attempt_timeout"] is not None

    plan = plan_batch("all", ["openai/gpt-4o"], None)
    options = eval_set_options(["openai/gpt-4o"], batch=plan, timeout=7200)
    assert options["batch"] is True and options["timeout"] == 7200 and options["attempt_timeout"] is None
    assert eval_set_options(["openai/gpt-4o"])["timeout"] == DEFAULT_TIMEOUT


def test_every_judge_of_a_panel_that_can_is_batched(monkeypatch):
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-batching-0000")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-batching-0000")
    panel = ["openai/gpt-4o-mini", "anthropic/claude-3-5-haiku", "vllm/local-judge"]
    plan = plan_batch("judge=500", ["openai/gpt-4o"], panel)
    assert plan.judges == {"judge": 500, "judge_2": 500}
    assert plan.notices == [
        "judge vllm/local-judge: no batching (provider 'vllm' has no batch API); requests go one by one"
    ]
    assert plan.batches("anthropic/claude-3-5-haiku", "judge_2") and not plan.batches("vllm/local-judge", "judge_3")
    assert not plan.batches("openai/gpt-4o", "model")  # only the judges were asked for
    options = eval_set_options(["openai/gpt-4o"], judge=panel, batch=plan)
    roles = options["model_roles"]
    assert roles["judge"].config.batch == 500 and roles["judge_2"].config.batch == 500
    unbatched = roles["judge_3"]  # bound by name, or built without a batch setting
    assert unbatched == "vllm/local-judge" or unbatched.config.batch is None


def test_run_dry_run_prices_batched_roles_at_the_batch_price(monkeypatch):
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    plan = plan_batch("all", ["openai/gpt-4o", "trustmh/smollm2"], ["anthropic/claude-3-5-haiku"])
    assert plan.batches("openai/gpt-4o", "model") and not plan.batches("trustmh/smollm2", "model")
    assert plan.batches("anthropic/claude-3-5-haiku", "judge") and not plan.batches("openai/gpt-4o", "user")


def test_a_call_goes_through_a_batch_api_when_its_config_asks_and_its_provider_can(monkeypatch):
    from trustmh.run.batching import goes_through_batch_api

    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    assert goes_through_batch_api("anthropic/claude-3-5-haiku", True)
    assert goes_through_batch_api("openai/gpt-4o", 500)
    assert not goes_through_batch_api("openai/gpt-4o", None)  # a role that did not ask
    # the models under test share one setting: the embedded model gets it too, and cannot batch
    assert not goes_through_batch_api("trustmh/smollm2", True)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://localhost:8000/v1")
    assert not goes_through_batch_api("openai/my-vllm-model", True)
