"""The model gets what the log says it got (issue 12, item 6): the temperature the log records
is the one sent to an OpenAI-compatible server, and the SDK's hidden retries are off for every
provider built on the openai client."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

from tests.hardening.double import running_double
from tests.hardening.hardening_cli import TEST_KEY, isolated_env, run_cli
from trustmh.run.models import model_defaults


@pytest.mark.slow
def test_the_temperature_logged_is_the_temperature_sent(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    with running_double(latency=0.0) as double:
        env = isolated_env(home, OPENAI_BASE_URL=double.base_url, OPENAI_API_KEY=TEST_KEY)
        result = run_cli(
            ["run", "privacy_psyleak", "--model", "openai/test-model", "--limit", "2", "--log-dir", "logs"]
            + ["--no-report"],
            tmp_path,
            env,
        )
        sent = list(double.state.settings_seen)
    assert result.returncode == 0, result.stderr[-3000:]
    (info,) = list_eval_logs(str(tmp_path / "logs"))
    log = read_eval_log(info)
    logged = {
        event.config.temperature for sample in log.samples or [] for event in sample.events if event.event == "model"
    }
    assert logged == {0.0}, logged
    assert sent and all(body.get("temperature") == 0.0 for body in sent), sent


@pytest.mark.parametrize("model", ["openai/local", "openai-api/vllm/qwen"])
def test_the_sdk_retries_are_off_for_every_openai_client(model: str) -> None:
    assert model_defaults([model], {})["max_retries"] == 0
