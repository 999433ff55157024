"""``trustmh run --max-tokens-total`` / ``--max-cost``: the run stops before the cap with one line
and exit code 3, and rerunning the same command resumes without paying a finished sample twice."""

from __future__ import annotations

import re
from pathlib import Path

from tests.hardening.double import running_double
from tests.hardening.hardening_cli import REPO, TEST_KEY, isolated_env, run_cli

SAMPLES = 6


def test_run_stops_before_the_token_cap_and_resumes(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    with running_double(latency=0.0, seed=1) as double:
        env = isolated_env(home, OPENAI_BASE_URL=double.base_url, OPENAI_API_KEY=TEST_KEY)
        # one call at a time, so "the next call" is well defined; a call reserves ~850 tokens
        # (prompt bytes + max_tokens) and uses ~140 (the double counts words)
        common = ["crisis_classification", "--model", "openai/test-model", "--limit", str(SAMPLES),
                  "--max-connections", "1", "--log-dir", str(tmp_path / "logs"), "--no-report"]  # fmt: skip
        capped = run_cli(["run", *common, "--max-tokens-total", "1200"], REPO, env)
        sent_capped = sum(double.request_counts.values())
        resumed = run_cli(["run", *common], REPO, env)
        sent_in_all = sum(double.request_counts.values())
    assert capped.returncode == 3, capped.stderr[-3000:]
    errors = [line for line in capped.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "Traceback" not in capped.stderr
    match = re.search(r"stopped before the cap: --max-tokens-total 1,200: ([\d,]+) tokens spent.*"
                      r"(\d+) samples finished.*Rerun the same command to resume", errors[0])  # fmt: skip
    assert match, errors[0]
    spent, finished = int(match.group(1).replace(",", "")), int(match.group(2))
    assert 0 < spent <= 1200 and 1 <= finished == sent_capped < SAMPLES
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert sent_in_all == SAMPLES  # the finished samples were reused, none was paid twice


def test_max_cost_needs_a_price_for_every_model(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = isolated_env(home, OPENAI_BASE_URL="http://127.0.0.1:9/v1", OPENAI_API_KEY=TEST_KEY)
    logs = tmp_path / "logs"
    result = run_cli(["run", "crisis_classification", "-m", "openai/test-model", "--limit", "1",
                      "--log-dir", str(logs), "--max-cost", "1"], REPO, env)  # fmt: skip
    assert result.returncode == 2
    assert "--max-cost: no price known for openai/test-model; give one with --prices FILE" in result.stderr
    assert not logs.exists()
