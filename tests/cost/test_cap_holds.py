"""Issue 25: ``trustmh run``'s caps hold end to end, against the OpenAI-compatible double.

* An attempt abandoned at ``--attempt-timeout`` still counts: the server may finish and bill it.
* A cap below the concurrent worst case lowers concurrency instead of stopping with nothing
  done; the run stops only when one call's worst case no longer fits, with one line.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

from tests.hardening.double import Faults, running_double
from tests.hardening.hardening_cli import REPO, TEST_KEY, isolated_env, run_cli

INPUT_PRICE, OUTPUT_PRICE = 10.0, 1000.0  # USD per million tokens


def _env(tmp_path: Path, base_url: str) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return isolated_env(home, OPENAI_BASE_URL=base_url, OPENAI_API_KEY=TEST_KEY)


def _only_log(log_dir: Path) -> Any:
    (info,) = list_eval_logs(str(log_dir))
    return read_eval_log(info)


@pytest.mark.slow
def test_an_attempt_abandoned_at_the_attempt_timeout_counts_toward_the_cap(tmp_path: Path) -> None:
    model = "openai/cap-timeout"
    prices = tmp_path / "prices.yaml"
    prices.write_text(f"{model}: {{input: {INPUT_PRICE}, output: {OUTPUT_PRICE}}}\n")
    # the first request of the sample hangs past the attempt timeout; the retry is answered
    faults = Faults(timeout=1.0, fault_attempts=1, hang_seconds=8.0)
    with running_double(latency=0.0, seed=3, faults=faults) as double:
        result = run_cli(["run", "crisis_classification", "-m", model, "--limit", "1", "--attempt-timeout", "1",
                          "--log-dir", str(tmp_path / "logs"), "--no-report", "--prices", str(prices),
                          "--max-cost", "5"], REPO, _env(tmp_path, double.base_url))  # fmt: skip
        outcomes = double.outcomes
    assert result.returncode == 0, result.stderr[-3000:]
    assert outcomes == {"timeout": 1, "ok": 1}
    output = " ".join(result.stdout.split())
    found = re.search(r"counted against the caps: ([\d.]+) USD of --max-cost 5 \(1 attempt without usage", output)
    assert found, output[-2000:]
    log = _only_log(tmp_path / "logs")
    usage = log.stats.model_usage[model]
    answered = (usage.input_tokens * INPUT_PRICE + usage.output_tokens * OUTPUT_PRICE) / 1e6
    (sample,) = log.samples
    calls = [event for event in sample.events if event.event == "model"]
    abandoned = next(event for event in calls if event.error)
    completion_budget = abandoned.config.max_tokens
    assert completion_budget
    # the abandoned attempt is counted at its worst case: at least its whole completion budget
    # (before, only the answered attempt's usage was counted: spent == answered)
    assert float(found.group(1)) >= answered + completion_budget * OUTPUT_PRICE / 1e6 - 0.00005


@pytest.mark.slow
def test_a_cap_below_the_concurrent_worst_case_lowers_concurrency_and_finishes(tmp_path: Path) -> None:
    """A call reserves ~850 tokens (prompt bytes + max_tokens) and uses ~140: a cap of 2,000 holds
    two calls' worst cases at once, not six. Before, the third reservation stopped the run with
    the calls in flight cancelled and "rerun to resume"; now calls wait their turn."""
    with running_double(latency=0.3, seed=4) as double:
        result = run_cli(["run", "crisis_classification", "-m", "openai/cap-concurrency", "--limit", "6",
                          "--max-connections", "6", "--max-tokens-total", "2000", "--log-dir", str(tmp_path / "logs"),
                          "--no-report"], REPO, _env(tmp_path, double.base_url))  # fmt: skip
        _, most_at_once = double.traffic()
    assert result.returncode == 0, result.stderr[-3000:]
    log = _only_log(tmp_path / "logs")
    assert log.status == "success" and len(log.samples) == 6
    assert 1 <= most_at_once <= 2  # concurrency lowered to what the cap holds
    found = re.search(r"counted against the caps: ([\d,]+) tokens of --max-tokens-total 2,000", result.stdout)
    assert found and 0 < int(found.group(1).replace(",", "")) <= 2000, result.stdout[-2000:]


def test_the_run_stops_only_when_one_call_cannot_fit_with_one_line(tmp_path: Path) -> None:
    """With 6 connections and room for one worst case (1,200 tokens), calls go one at a time
    until spent + the next call's worst case would cross the cap. Before, the second reservation
    stopped the run at once, the first call cancelled in flight: nothing finished, one call paid."""
    with running_double(latency=0.1, seed=5) as double:
        result = run_cli(["run", "crisis_classification", "-m", "openai/cap-one", "--limit", "6",
                          "--max-connections", "6", "--max-tokens-total", "1200", "--log-dir", str(tmp_path / "logs"),
                          "--no-report"], REPO, _env(tmp_path, double.base_url))  # fmt: skip
        sent = sum(double.request_counts.values())
    assert result.returncode == 3, result.stderr[-3000:]
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr[-3000:]
    found = re.search(r"stopped before the cap: --max-tokens-total 1,200: ([\d,]+) tokens spent, the next call "
                      r"could need up to ([\d,]+) tokens more, which could cross the cap\. (\d+) samples finished",
                      lines[0])  # fmt: skip
    assert found, lines[0]
    spent, need, finished = (int(group.replace(",", "")) for group in found.groups())
    assert spent <= 1200 < spent + need
    # a sample whose call was just answered may still be cancelled by the stop (run again on resume)
    assert 1 <= finished <= sent and 2 <= sent < 6
