"""The default run prints no warning a user cannot act on, and its output is readable when piped."""

from __future__ import annotations

import tempfile
from pathlib import Path

from tests.hardening.double import running_double
from tests.hardening.hardening_cli import REPO, TEST_KEY, isolated_env, run_cli


def test_a_default_run_prints_no_warning_and_no_hooks_banner() -> None:
    """The README's default run, shortened and on the OpenAI test double instead of the embedded
    model: a scripted task and a conversation task (the simulated-user line), piped."""
    # a short HOME and log folder: inspect's control socket lives under them, and pytest's deep tmp
    # paths pass the 108-byte AF_UNIX limit (a warning of its own, not what this test is about)
    with running_double() as double, tempfile.TemporaryDirectory(prefix="tmh", dir="/tmp") as short:
        home = Path(short) / "h"
        home.mkdir()
        result = run_cli(
            ["run", "ethics_ethicmh", "crisis_simulated_risk", "--model", "openai/test-model", "--limit", "1"]
            + ["--log-dir", str(Path(short) / "logs"), "--no-report"],
            REPO,
            isolated_env(home, OPENAI_BASE_URL=double.base_url, OPENAI_API_KEY=TEST_KEY),
            timeout=300,
        )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-3000:]
    assert "warning" not in output.lower(), output
    assert "hooks enabled" not in output and "inspect_ai v" not in output, output
    # the default's simulated user is said as information, with how to change it
    assert "the simulated user is played by the model under test (openai/test-model); --user-model M" in output
    assert "trustmh results" in output
