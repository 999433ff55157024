"""Ctrl-C during ``trustmh run`` (issue 25, item 6) and every other command that runs tasks
(``trustmh audit``, issue 35, item 10): the command exits 130 with one line, never prints
"completed successfully" (or inspect's "Completed all tasks ... successfully"), shows no
traceback, and the log it leaves is not a finished one, so rerunning the command resumes."""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

from tests.audit.audit_helpers import EXAMPLE_JSONL, RubricJudge
from tests.bulk.conftest import FIXTURES
from tests.doubles.openai_double import OpenAIDouble
from tests.hardening.double import running_double
from tests.hardening.hardening_cli import REPO, TEST_KEY, isolated_env, popen_cli, psyleak_run

TINY_CSV = FIXTURES / "mentalbench_tiny.csv"


def _interrupted(process: subprocess.Popen[str], sent: Callable[[], int], log_dir: Path | None, calls: int = 4) -> str:
    """SIGINT once ``calls`` calls reached the server; then exit 130, one line, no success claimed,
    no finished log. Returns the line."""
    deadline = time.monotonic() + 120
    while sent() < calls and time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        time.sleep(0.02)
    process.send_signal(signal.SIGINT)
    try:
        stdout, stderr = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        stdout, stderr = process.communicate()
        raise AssertionError(f"still running 60 s after SIGINT: {stderr[-2000:]}") from None
    output = stdout + stderr
    assert process.returncode == 130, output[-3000:]
    # inspect 0.3.285 printed "Completed all tasks in 'logs' successfully" and the run exited 0
    assert "completed successfully" not in output.lower() and "Completed all tasks" not in output
    assert "Traceback" not in output
    errors = [line for line in stderr.splitlines() if line.strip()]
    assert len(errors) == 1 and errors[0].startswith("error: interrupted (Ctrl-C)"), stderr[-2000:]
    if log_dir is not None:
        statuses = [read_eval_log(info.name, header_only=True).status for info in list_eval_logs(str(log_dir))]
        assert "success" not in statuses, statuses
    return errors[0]


@pytest.mark.slow
def test_sigint_mid_run_exits_non_zero_and_claims_no_success(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    log_dir = tmp_path / "logs"
    with running_double(latency=0.5) as double:
        env = isolated_env(home, OPENAI_BASE_URL=double.base_url, OPENAI_API_KEY=TEST_KEY)
        process = popen_cli(psyleak_run(log_dir, "--max-connections", "2", "--no-report"), REPO, env)
        _interrupted(process, lambda: sum(double.request_counts.values()), log_dir)


@pytest.mark.slow
def test_sigint_mid_audit_exits_130_and_claims_no_success(tmp_path: Path) -> None:
    """`trustmh audit` exited 0 with "completed successfully" after Ctrl-C, as `run` once did."""
    home = tmp_path / "home"
    home.mkdir()
    log_dir = tmp_path / "logs"
    judge = RubricJudge()
    with OpenAIDouble(latency=0.5, responder=judge) as server:
        env = isolated_env(home, OPENAI_BASE_URL=server.base_url, OPENAI_API_KEY=TEST_KEY)
        args = ["audit", str(EXAMPLE_JSONL), "--judge", "openai/test-judge", "--max-connections", "1"]
        process = popen_cli([*args, "--log-dir", str(log_dir), "--no-report"], REPO, env)
        _interrupted(process, lambda: len(judge.received), log_dir)


def test_sigint_mid_generate_exits_130_with_one_line_and_writes_nothing(tmp_path: Path) -> None:
    """`trustmh generate` exited 130 without a word (typer turns Ctrl-C into a silent exit)."""
    home = tmp_path / "home"
    home.mkdir()
    out = tmp_path / "out.csv"
    with OpenAIDouble(latency=30.0) as server:
        env = isolated_env(home, OPENAI_API_KEY=TEST_KEY)
        args = ["generate", "--conversations", str(TINY_CSV), "--model", "openai/m", "-o", str(out)]
        args += ["--base-url", server.base_url, "--no-progress", "--cache", str(tmp_path / "cache.sqlite")]
        process = popen_cli(args, REPO, env)
        _interrupted(process, lambda: sum(server.request_counts.values()), None, calls=1)
    assert not out.exists()
