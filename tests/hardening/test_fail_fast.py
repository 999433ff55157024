"""Fail fast and say so: a dead endpoint is one line naming it within 60 s, not ~20 minutes of
retries (issue 12, item 7). Failed cells making a non-zero exit are in tests/bulk/test_cli_generate.py."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.bulk.cli import generate
from tests.hardening.hardening_cli import REPO, TEST_KEY, isolated_env, run_cli

REFUSED = "http://127.0.0.1:9/v1"  # the discard port: nothing listens
UNRESOLVED = "http://no-such-host.invalid/v1"  # .invalid never resolves (RFC 2606)


def _one_line(result) -> str:
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr[-2000:]
    return lines[0]


@pytest.mark.parametrize("url,words", [(REFUSED, "connection refused"), (UNRESOLVED, "does not resolve")])
def test_run_on_a_dead_endpoint_stops_within_a_minute_naming_it(tmp_path: Path, url: str, words: str) -> None:
    home = tmp_path / "home"
    home.mkdir()
    started = time.monotonic()
    result = run_cli(
        ["run", "privacy_psyleak", "--model", "openai/test-model", "--log-dir", str(tmp_path / "logs"), "--no-report"],
        REPO,
        isolated_env(home, OPENAI_BASE_URL=url, OPENAI_API_KEY=TEST_KEY),
        timeout=300,
    )
    elapsed = time.monotonic() - started
    assert result.returncode == 2, result.stderr[-2000:]
    line = _one_line(result)
    assert "--model openai/test-model: endpoint" in line and url in line and words in line, line
    assert elapsed < 60, elapsed
    assert not list((tmp_path / "logs").glob("*.eval"))


def test_generate_on_a_dead_endpoint_stops_at_once_naming_it(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    conversations = tmp_path / "conv.csv"
    conversations.write_text("context\nI cannot sleep.\nWork is too much.\n", encoding="utf-8")
    started = time.monotonic()
    result = run_cli(
        generate(
            conversations,
            tmp_path / "out.csv",
            "--base-url",
            REFUSED,
            "--cache",
            str(tmp_path / "c.sqlite"),
            "--no-progress",
        ),
        REPO,
        isolated_env(home, OPENAI_API_KEY=TEST_KEY),
    )
    assert result.returncode == 2, result.stderr[-2000:]
    line = _one_line(result)
    assert f"model openai/m: endpoint {REFUSED} is unreachable: connection refused" in line, line
    assert time.monotonic() - started < 60
    assert not (tmp_path / "out.csv").exists()
