"""Ctrl-C during ``trustmh run`` (issue 25, item 6): the run exits 130 with one line, never
prints "completed successfully" (or inspect's "Completed all tasks ... successfully"), shows no
traceback, and the log it leaves is not a finished one, so rerunning the command resumes."""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path

from inspect_ai.log import list_eval_logs, read_eval_log

from tests.hardening.double import running_double
from tests.hardening.hardening_cli import REPO, TEST_KEY, isolated_env, popen_cli, psyleak_run


def test_sigint_mid_run_exits_non_zero_and_claims_no_success(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    log_dir = tmp_path / "logs"
    with running_double(latency=0.5) as double:
        env = isolated_env(home, OPENAI_BASE_URL=double.base_url, OPENAI_API_KEY=TEST_KEY)
        process = popen_cli(psyleak_run(log_dir, "--max-connections", "2", "--no-report"), REPO, env)
        deadline = time.monotonic() + 120
        while sum(double.request_counts.values()) < 4 and time.monotonic() < deadline:
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
    statuses = [read_eval_log(info.name, header_only=True).status for info in list_eval_logs(str(log_dir))]
    assert "success" not in statuses, statuses
