"""``trustmh run --max-tokens-total`` / ``--max-cost``: the run stops before the cap with one line
and exit code 3, and rerunning the same command resumes without paying a finished sample twice."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log
from typer.testing import CliRunner

from tests.doubles.batch_double import BatchDouble
from tests.hardening.double import running_double
from tests.hardening.hardening_cli import REPO, TEST_KEY, isolated_env, run_cli
from trustmh.cli.main import app

SAMPLES = 6


@pytest.mark.slow
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


# --- --batch: batched calls count at the batch price ------------------------------------------
# Per million tokens. The judge's batch share is 0.5; the model under test (openai/ on a
# compatible server) cannot batch and is always priced at its list price.
INPUT_PRICE, OUTPUT_PRICE, BATCH_SHARE = 10.0, 1000.0, 0.5
# One sample: the model's call (max_tokens 100, reserved at <= ~0.11 USD, spending ~0.02), then
# the judge's (max_tokens 512: reserved at >= 512 * 1000 / 1e6 = 0.512 USD at the list price,
# about half that at the batch price, with a prompt of a few thousand bytes at 10 USD/M).
CAP = 0.45


def _names(case: str) -> tuple[str, str]:
    """(model under test, judge) of one test. Names of their own: inspect memoizes a model per
    process with the base URL (a double's port) and the batcher (bound to the event loop of its
    run) it was made with, so a name another run used would call a double that is gone."""
    return f"openai/costcap-{case}", f"anthropic/costcap-judge-{case}"


def _capped_mentalbench_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str, *batch: str) -> Any:
    """``trustmh run dialogue_mentalbench --judge JUDGE --max-cost CAP [--batch ...]`` with the
    judge at the batch double and the model at the OpenAI double: (result, batch double's state,
    OpenAI double's request counts)."""
    # inspect's batcher checks its queue every 15 s; the double answers within 0.1 s
    monkeypatch.setattr("inspect_ai.model._providers.util.batch.DEFAULT_BATCH_TICK", 0.2)
    monkeypatch.setattr("inspect_ai.model._providers.util.batch.DEFAULT_SEND_DELAY", 0.2)
    model, judge = _names(case)
    prices = tmp_path / "prices.yaml"
    prices.write_text(f"{model}: {{input: {INPUT_PRICE}, output: {OUTPUT_PRICE}}}\n"
                      f"{judge}: {{input: {INPUT_PRICE}, output: {OUTPUT_PRICE}, batch: {BATCH_SHARE}}}\n")  # fmt: skip
    with BatchDouble(processing_delay=0.1) as api, running_double(latency=0.0, seed=1) as double:
        for name, value in {"ANTHROPIC_API_KEY": "sk-ant-test-costcap-0000", "ANTHROPIC_BASE_URL": api.anthropic_base_url,
                            "OPENAI_API_KEY": TEST_KEY, "OPENAI_BASE_URL": double.base_url}.items():  # fmt: skip
            monkeypatch.setenv(name, value)
        result = CliRunner().invoke(app, [
            "run", "dialogue_mentalbench", "--source", "starter", "-m", model, "-T", "max_tokens=100",
            "--judge", judge, "--limit", "1", "--log-dir", str(tmp_path / "logs"), "--no-report",
            "--prices", str(prices), "--max-cost", str(CAP), *batch,
        ])  # fmt: skip
        return result, api.state, dict(double.request_counts)


def _usage(log_dir: Path) -> dict[str, Any]:
    """Token usage per model, as inspect recorded it in the log."""
    (info,) = list_eval_logs(str(log_dir))
    return read_eval_log(info).stats.model_usage


def _cost(usage: Any, share: float = 1.0) -> float:
    return share * (usage.input_tokens * INPUT_PRICE + usage.output_tokens * OUTPUT_PRICE) / 1e6


@pytest.mark.parametrize("batch", ["judge", "all"])  # all: the model under test asks too, but cannot batch
def test_run_cap_counts_batched_calls_at_the_batch_price(
    batch: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result, batches, direct = _capped_mentalbench_run(tmp_path, monkeypatch, batch, "--batch", batch)
    output = " ".join(result.output.split())
    assert result.exit_code == 0, output  # at the list price the judge's call would cross CAP (below)
    assert batches.batches_created == 1 and sum(batches.submissions.values()) == 1  # the judge, batched
    assert sum(direct.values()) == 1  # the model under test, sent directly
    usage = _usage(tmp_path / "logs")
    model, judge = (usage[name] for name in _names(batch))
    assert judge.output_tokens > 0 and model.output_tokens > 0
    match = re.search(r"counted against the caps: ([\d.]+) USD of --max-cost 0.45 \(1 batched call at the batch price\)",
                      output)  # fmt: skip
    assert match, output
    expected = _cost(model) + _cost(judge, BATCH_SHARE)  # the unbatched model at its list price
    assert float(match.group(1)) == pytest.approx(expected, abs=0.00005)
    assert abs(expected - (_cost(model) + _cost(judge))) > 0.001  # the list price would be told apart


def test_the_same_cap_stops_the_run_when_the_judge_is_not_batched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result, batches, direct = _capped_mentalbench_run(tmp_path, monkeypatch, "unbatched")
    output = " ".join(result.output.split())
    assert result.exit_code == 3, output
    match = re.search(r"stopped before the cap: --max-cost 0.45 USD: ([\d.]+) USD spent, "
                      r"the next call could need up to ([\d.]+) USD more", output)  # fmt: skip
    assert match, output
    spent, next_need = float(match.group(1)), float(match.group(2))
    assert next_need >= 512 * OUTPUT_PRICE / 1e6  # the judge's reply alone, at the list price
    assert spent + next_need > CAP
    assert batches.batches_created == 0 and batches.submissions == {} and sum(direct.values()) == 1
    model_usage = _usage(tmp_path / "logs")[_names("unbatched")[0]]
    assert spent == pytest.approx(_cost(model_usage), abs=0.00005)


@pytest.mark.slow
def test_a_cap_stop_is_one_line_with_spent_cap_and_why(tmp_path: Path) -> None:
    """Issue 30: a stop with many samples in flight printed a "Task cancelled" line per sample; the
    run ends with one line: what was spent, the cap, and what the next call could have needed."""
    home = tmp_path / "home"
    home.mkdir()
    with running_double(latency=0.05, seed=2) as double:
        env = isolated_env(home, OPENAI_BASE_URL=double.base_url, OPENAI_API_KEY=TEST_KEY)
        result = run_cli(["run", "crisis_classification", "crisis_cssrs", "--model", "openai/test-model",
                          "--limit", "12", "--log-dir", str(tmp_path / "logs"), "--no-report",
                          "--max-tokens-total", "3000"], REPO, env, timeout=900)  # fmt: skip
    assert result.returncode == 3, result.stderr[-3000:]
    output = result.stdout + result.stderr
    assert "cancelled" not in output.lower(), output[-3000:]
    assert "Traceback" not in output
    errors = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(errors) == 1 and errors[0].startswith("error:"), result.stderr[-3000:]
    found = re.search(r"--max-tokens-total 3,000: ([\d,]+) tokens spent, the next call could need up to ([\d,]+) "
                      r"tokens more(?: on top of ([\d,]+) tokens reserved by the calls then in flight)?, "
                      r"which could cross the cap", errors[0])  # fmt: skip
    assert found, errors[0]
    spent, need, held = (int((g or "0").replace(",", "")) for g in found.groups())
    # the line adds up: why the next call was not sent, although "spent" is below the cap
    assert spent <= 3000 < spent + need + held
