"""``trustmh run --dry-run`` counts the requests the real run then makes (epochs included), and calls nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.hardening.double import running_double
from tests.hardening.hardening_cli import REPO, TEST_KEY, isolated_env, run_cli

TASKS = ["crisis_classification", "reliability_esconv_support"]


def requests_of(output: str, model: str, role: str) -> int:
    match = re.search(rf"{re.escape(model)}\s*│\s*{role}\s*│\s*([\d,]+)\s*│", output)
    assert match, output
    return int(match.group(1).replace(",", ""))


@pytest.mark.slow
def test_dry_run_matches_the_real_run_and_sends_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    with running_double(latency=0.0, seed=1) as double:
        env = isolated_env(home, OPENAI_BASE_URL=double.base_url, OPENAI_API_KEY=TEST_KEY)
        common = [*TASKS, "--model", "openai/test-model", "--limit", "2", "--log-dir", str(tmp_path / "logs"),
                  "--epochs", "2"]  # fmt: skip
        dry = run_cli(["run", *common, "--dry-run", "--judge", "openai/gpt-4o-mini"], REPO, env)
        assert dry.returncode == 0, dry.stderr[-3000:]
        assert double.request_counts == {}  # the dry run called nothing
        assert not (tmp_path / "logs").exists()
        real = run_cli(["run", *common, "--no-report"], REPO, env)
        assert real.returncode == 0, real.stderr[-3000:]
        sent = sum(double.request_counts.values())
    estimated = requests_of(dry.stdout, "openai/test-model", "model")
    assert estimated == sent and sent > 2 * len(TASKS)  # the dialogue task asks several turns per sample
    assert requests_of(dry.stdout, "openai/gpt-4o-mini", "judge") >= 2
    assert "no price known for openai/test-model" in " ".join(dry.stdout.split())
    assert "2 epochs: every sample's requests sent 2 times" in " ".join(dry.stdout.split())
