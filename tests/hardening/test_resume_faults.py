"""Resume after SIGKILL and fault tolerance of ``trustmh run`` against the OpenAI double.

The CLI runs as a subprocess with inspect's openai provider pointed at the double
(``OPENAI_BASE_URL``); the double counts requests per prompt.
"""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

from tests.doubles.openai_double import choose_fault, messages_key
from tests.hardening.double import Faults, normalise, running_double
from tests.hardening.hardening_cli import REPO, TEST_KEY, isolated_env, popen_cli, psyleak_run, run_cli
from trustmh.run.runner import LOG_FLUSH_SECONDS

N = 20  # PsyLeak starter: 5 scenarios x 4 questions


def _eval_logs(log_dir: Path) -> list[str]:
    return [info.name for info in list_eval_logs(str(log_dir), recursive=True)]


def _psyleak_inputs() -> dict[str, str]:
    from trustmh.pillars.privacy.dataset import psyleak_dataset

    return {str(s.id): s.input for s in psyleak_dataset("starter", None)}


def _command(log_dir: Path, *extra: str) -> list[str]:
    return psyleak_run(log_dir, "--limit", str(N), "--no-report", *extra)


@pytest.mark.slow
def test_resume_after_sigkill(tmp_path: Path, home: Path) -> None:
    log_dir = tmp_path / "logs"
    with running_double(latency=1.0) as double:  # 2 connections: about 2 samples a second
        env = isolated_env(home, OPENAI_BASE_URL=double.base_url, OPENAI_API_KEY=TEST_KEY)
        command = _command(log_dir, "--max-connections", "2")
        process = popen_cli(command, REPO, env)
        deadline = time.monotonic() + 120
        while sum(double.request_counts.values()) < 8 and time.monotonic() < deadline:
            assert process.poll() is None, process.communicate()
            time.sleep(0.02)
        # ~6 samples have finished: wait until they must be in the log, as in real life
        time.sleep(LOG_FLUSH_SECONDS + 1.0)
        assert process.poll() is None, "the run ended before the kill"
        process.send_signal(signal.SIGKILL)
        process.communicate()
        requests_at_kill = sum(double.request_counts.values())

        # What a killed run left behind: the samples that finished LOG_FLUSH_SECONDS before the kill.
        (partial_path,) = _eval_logs(log_dir)
        partial = read_eval_log(partial_path)
        assert partial.status == "started"
        done_before_kill = {str(s.id) for s in partial.samples or []}
        assert len(done_before_kill) >= 4, "finished samples must be in the log within LOG_FLUSH_SECONDS"
        assert len(done_before_kill) < N

        result = run_cli(command, REPO, env)
        assert result.returncode == 0, result.stderr[-3000:]
        counts = double.counts_by_input()

    # Exactly one log (the superseded "started" one is removed), every sample once.
    (final_path,) = _eval_logs(log_dir)
    final = read_eval_log(final_path)
    assert final.status == "success"
    ids = [str(s.id) for s in final.samples or []]
    assert sorted(ids) == sorted(set(ids)) and len(ids) == N
    inputs = _psyleak_inputs()
    assert set(ids) == set(inputs)
    # No repeated model call for a sample finished before the kill, and every sample called.
    for sample_id in done_before_kill:
        assert counts[normalise(inputs[sample_id])] == 1, sample_id
    for sample_id in inputs:
        assert counts.get(normalise(inputs[sample_id]), 0) >= 1, sample_id
    # Only what the log did not hold at the kill is asked again: the requests in flight and the
    # samples that finished within the last LOG_FLUSH_SECONDS.
    assert requests_at_kill >= len(done_before_kill)
    assert sum(counts.values()) <= N + requests_at_kill - len(done_before_kill)


@pytest.mark.slow
def test_rerun_of_finished_run_calls_nothing(tmp_path: Path, home: Path) -> None:
    log_dir = tmp_path / "logs"
    with running_double(latency=0.0) as double:
        env = isolated_env(home, OPENAI_BASE_URL=double.base_url, OPENAI_API_KEY=TEST_KEY)
        first = run_cli(_command(log_dir, "--limit", "6"), REPO, env)
        assert first.returncode == 0, first.stderr[-3000:]
        calls = sum(double.request_counts.values())
        again = run_cli(_command(log_dir, "--limit", "6"), REPO, env)
        assert again.returncode == 0, again.stderr[-3000:]
        assert sum(double.request_counts.values()) == calls == 6
    assert len(_eval_logs(log_dir)) == 1


SPEC_FAULTS = dict(http_5xx=0.2, http_429=0.1, timeout=0.05, malformed=0.05, retry_after=0.2, hang_seconds=6)


@pytest.mark.slow
def test_fault_mix_completes_and_every_sample_is_accounted_for(tmp_path: Path, home: Path) -> None:
    log_dir = tmp_path / "logs"
    with running_double(latency=0.02, faults=Faults(**SPEC_FAULTS), seed=3) as double:
        env = isolated_env(home, OPENAI_BASE_URL=double.base_url, OPENAI_API_KEY=TEST_KEY)
        result = run_cli(_command(log_dir, "--attempt-timeout", "2", "--timeout", "90"), REPO, env)
        outcomes = double.outcomes
    assert result.returncode == 0, result.stderr[-3000:]
    # The mix really happened (seeded, so this is deterministic).
    assert outcomes.get("http_5xx", 0) > 0 and outcomes.get("http_429", 0) > 0
    (path,) = _eval_logs(log_dir)
    log = read_eval_log(path)
    assert log.status == "success" and len(log.samples or []) == N
    for sample in log.samples or []:
        assert sample.scores or (sample.error and sample.error.message), sample.id
    # The summary has an errors column with the count per task.
    assert "errors" in result.stdout and "privacy_psyleak" in result.stdout


def _seed_with_one_doomed_sample(inputs: dict[str, str], faults: Faults) -> tuple[int, str]:
    """A seed under which exactly one sample fails both of its attempts (max_retries=0,
    retry_on_error=1): the fault draw is a pure function of (seed, messages, attempt)."""
    keys = {sid: messages_key([{"role": "user", "content": text}]) for sid, text in inputs.items()}
    for seed in range(5000):
        doomed = [
            sid
            for sid, key in keys.items()
            if choose_fault(faults, seed, key, 1) and choose_fault(faults, seed, key, 2)
        ]
        if len(doomed) == 1:
            return seed, doomed[0]
    raise AssertionError("no seed found")


@pytest.mark.slow
def test_errored_sample_is_counted_with_its_reason(tmp_path: Path, home: Path) -> None:
    faults = Faults(http_5xx=0.15)
    inputs = _psyleak_inputs()
    seed, doomed = _seed_with_one_doomed_sample(inputs, faults)
    log_dir = tmp_path / "logs"
    with running_double(latency=0.0, faults=faults, seed=seed) as double:
        env = isolated_env(home, OPENAI_BASE_URL=double.base_url, OPENAI_API_KEY=TEST_KEY)
        result = run_cli(_command(log_dir, "--max-retries", "0"), REPO, env)
    assert result.returncode == 0, result.stderr[-3000:]
    (path,) = _eval_logs(log_dir)
    log = read_eval_log(path)
    errored = {str(s.id): s.error.message for s in log.samples or [] if s.error}
    assert list(errored) == [doomed]
    assert "InternalServerError" in errored[doomed]
    scored = [s for s in log.samples or [] if s.scores]
    assert len(scored) == N - 1
    # The samples table: status success, 20 samples, 1 error and its reason.
    row = next(line for line in result.stdout.splitlines() if "privacy_psyleak" in line and "success" in line)
    cells = [cell.strip() for cell in row.split("│") if cell.strip()]
    assert cells[3:5] == [str(N), "1"], row
    assert "HTTP 5xx" in cells[5], row
    assert TEST_KEY not in result.stdout + result.stderr
