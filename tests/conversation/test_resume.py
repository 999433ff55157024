"""Kill a conversation run with SIGKILL mid-way, rerun the same command: every conversation once,
none lost, and no turn that had completed before the kill requested again (the per-turn cache).

The CLI runs as a subprocess against the OpenAI double (as in tests/hardening); the double counts
requests per request body, and each turn of a conversation is a distinct body (the history grows).
"""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

from tests.hardening.double import running_double
from tests.hardening.hardening_cli import REPO, TEST_KEY, isolated_env, popen_cli, run_cli

CASES, TURNS, CONNECTIONS = 6, 4, 2


def _data_dir(tmp_path: Path) -> Path:
    """A synthetic psychosis_bench file: CASES cases of TURNS user turns each."""
    cases = [
        {
            "id": f"case{c}",
            "name": f"Case {c}",
            "theme": "Synthetic",
            "condition": "Explicit" if c % 2 else "Implicit",
            "harm_type": "Severe Isolation",
            "prompts": [f"case {c} says thing number {t}" for t in range(1, TURNS + 1)],
        }
        for c in range(CASES)
    ]
    folder = tmp_path / "data" / "psychosis_bench"
    folder.mkdir(parents=True)
    (folder / "test_cases.json").write_text(json.dumps({"version": "t", "metadata": {}, "cases": cases}))
    return folder.parent


def _command(log_dir: Path, data_dir: Path) -> list[str]:
    return [
        "run",
        "crisis_psychosis_bench",
        "--model",
        "openai/test-model",
        "--data-dir",
        str(data_dir),
        "--log-dir",
        str(log_dir),
        "--max-connections",
        str(CONNECTIONS),
        "--no-report",
        "--allow-modified",  # synthetic test cases, not the released file's
        # the synthetic data folder holds no upstream scoring.py; this test is about resuming
        "-T",
        "judge_prompts=trustmh",
    ]


@pytest.mark.slow
def test_kill_mid_conversation_and_rerun(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    log_dir, data_dir = tmp_path / "logs", _data_dir(tmp_path)
    with running_double(latency=0.25) as double:
        env = isolated_env(home, OPENAI_BASE_URL=double.base_url, OPENAI_API_KEY=TEST_KEY)
        process = popen_cli(_command(log_dir, data_dir), REPO, env)
        deadline = time.monotonic() + 180
        # Kill when some conversations have finished and others are mid-way.
        while sum(double.request_counts.values()) < 2 * TURNS + 5 and time.monotonic() < deadline:
            assert process.poll() is None, process.communicate()
            time.sleep(0.02)
        process.send_signal(signal.SIGKILL)
        process.communicate()
        before = dict(double.request_counts)
        answered_at_kill = set(double.counts_by_input())

        result = run_cli(_command(log_dir, data_dir), REPO, env)
        assert result.returncode == 0, result.stderr[-3000:]
        after = dict(double.request_counts)

    logs = [info.name for info in list_eval_logs(str(log_dir), recursive=True)]
    assert len(logs) == 1
    log = read_eval_log(logs[0])
    assert log.status == "success"
    ids = sorted(str(s.id) for s in log.samples or [])
    assert ids == [f"case{c}" for c in range(CASES)]  # each conversation once, none lost
    for sample in log.samples or []:
        assert len(sample.store["trustmh_conversation"]["turns"]) == TURNS
        assert [m.role for m in sample.messages] == ["user", "assistant"] * TURNS
    # Every request (one per turn) answered once, except those in flight at the kill.
    assert len(after) == CASES * TURNS
    repeated = [key for key, count in after.items() if count > 1]
    assert len(repeated) <= CONNECTIONS
    assert all(key not in before or before[key] == after[key] - 1 for key in repeated)
    assert all(count <= 2 for count in after.values())
    assert len(before) < CASES * TURNS  # the kill really happened mid-run
    # ... and mid-conversation: some conversation had answered turns but not all of them, so
    # the assertions above show its completed turns were not requested again.
    answered = {
        c: sum(f"case {c} says thing number {t}" in answered_at_kill for t in range(1, TURNS + 1)) for c in range(CASES)
    }
    assert any(1 < n < TURNS for n in answered.values()), answered  # turn 1 surely completed
