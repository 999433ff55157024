"""``--timeout`` bounds a whole model call, retries included, under ``trustmh run`` (issue 35,
item 10): a ``null`` reply took 159 s under ``--timeout 20`` (the call retried, then the sample,
then the task), a trickled reply was still read after 228 s under ``--timeout 30``, both with
tracebacks on the console and an opaque ``RetryError`` at the end. Now the first call that runs
out of its time stops the run with one line naming the model, its endpoint and the reason."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.doubles.hostile_http import HostileBot
from tests.hardening.hardening_cli import REPO, isolated_env, run_cli

TIMEOUT_S = 3
CONFIG = 'url: "{url}"\nbody: {{text: "{{{{message}}}}"}}\nreply: data.reply\n'


@pytest.mark.parametrize(
    ("kind", "reason"),
    [("null", "reply path 'data.reply' holds null"), ("trickle", "the last cut while waiting for its reply")],
)
@pytest.mark.slow
def test_a_call_out_of_its_timeout_ends_the_run_with_one_line(tmp_path: Path, kind: str, reason: str) -> None:
    home = tmp_path / "home"
    home.mkdir()
    with HostileBot() as bot:
        url = f"{bot.base_url}/{kind}"
        config = tmp_path / "bot.yaml"
        config.write_text(CONFIG.format(url=url), encoding="utf-8")
        args = ["run", "privacy_psyleak", "--limit", "2", "--model", "trustmh/http/bot", "-M", f"config={config}"]
        started = time.monotonic()
        result = run_cli(
            [*args, "--timeout", str(TIMEOUT_S), "--log-dir", str(tmp_path / "logs"), "--no-report"],
            REPO,
            isolated_env(home),
        )
        elapsed = time.monotonic() - started
    output = result.stdout + result.stderr
    assert result.returncode == 2, output[-3000:]
    assert "Traceback" not in output and "RetryError" not in output, output[-3000:]
    errors = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(errors) == 1, result.stderr[-3000:]
    expected = f"error: trustmh/http/bot at {url}: no answer within --timeout {TIMEOUT_S} s"
    assert errors[0].startswith(expected) and reason in errors[0], errors[0]
    assert "rerun the same command to resume" in errors[0]
    # start-up and the stop included; before, every sample's call was retried in the sample and the task
    assert elapsed < 45, elapsed
