"""A cap holds across reruns: what a capped run spent is recorded in the log folder and counts
toward the cap of the next capped run there. A rerun with the same cap after a cap stop makes
progress or says in one line that it cannot; raising the cap resumes, and the run says the
earlier spending counts toward the raised cap. Before, every rerun had the whole cap again, so
rerunning after each stop spent the cap again and again."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.hardening.double import running_double
from tests.hardening.hardening_cli import REPO, TEST_KEY, isolated_env, run_cli
from trustmh.run.spend import SPEND_FILE

SAMPLES = 6
CAP = 1200  # a call reserves ~850 tokens (prompt bytes + max_tokens) and uses ~140 (test_run_caps.py)


def _error(stderr: str) -> str:
    errors = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "Traceback" not in stderr, stderr[-3000:]
    return errors[0]


@pytest.mark.slow
def test_a_rerun_counts_what_earlier_runs_spent_toward_the_same_cap(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    logs = tmp_path / "logs"
    common = ["run", "crisis_classification", "--model", "openai/test-model", "--limit", str(SAMPLES),
              "--max-connections", "1", "--log-dir", str(logs), "--no-report"]  # fmt: skip
    with running_double(latency=0.0, seed=1) as double:
        env = isolated_env(home, OPENAI_BASE_URL=double.base_url, OPENAI_API_KEY=TEST_KEY)
        first = run_cli([*common, "--max-tokens-total", str(CAP)], REPO, env)
        sent_first = sum(double.request_counts.values())

        again = run_cli([*common, "--max-tokens-total", str(CAP)], REPO, env)
        sent_again = sum(double.request_counts.values()) - sent_first

        raised = run_cli([*common, "--max-tokens-total", "6000"], REPO, env)
        sent_in_all = sum(double.request_counts.values())

    assert first.returncode == 3, first.stderr[-3000:]
    stopped = re.search(r"--max-tokens-total 1,200: ([\d,]+) tokens spent", _error(first.stderr))
    assert stopped, first.stderr
    spent_first = int(stopped.group(1).replace(",", ""))
    assert 1 <= sent_first < SAMPLES and 0 < spent_first <= CAP
    # what is left under the cap fits no call: nothing sent, and the one line says so
    assert again.returncode == 3 and sent_again == 0, again.stderr[-3000:]
    line = _error(again.stderr)
    assert "This run made no progress" in line and "Raise the cap to resume" in line, line
    assert f"earlier runs in {logs} count toward this one's: {spent_first:,} tokens of --max-tokens-total" in (
        " ".join(again.stdout.split())
    )
    # raised: the earlier spending counts toward the raised cap, said in one line; the run finishes
    assert raised.returncode == 0, raised.stderr[-3000:]
    said = " ".join(raised.stdout.split())
    assert re.search(rf"{spent_first:,} tokens of --max-tokens-total 6,000, raised from 1,200 \([\d,]+ left\)", said)
    assert sent_in_all == SAMPLES  # no sample paid twice
    total = json.loads((logs / SPEND_FILE).read_text(encoding="utf-8"))["tokens"]
    assert spent_first < total <= 6000


def test_nothing_left_under_the_cap_stops_before_the_run(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / SPEND_FILE).write_text(json.dumps({"cost": None, "tokens": 1500, "max_tokens_total": 1500}))
    with running_double(latency=0.0, seed=1) as double:
        env = isolated_env(home, OPENAI_BASE_URL=double.base_url, OPENAI_API_KEY=TEST_KEY)
        result = run_cli(["run", "crisis_classification", "--model", "openai/test-model", "--limit", "2",
                          "--log-dir", str(logs), "--max-tokens-total", "1500"], REPO, env)  # fmt: skip
        sent = sum(double.request_counts.values())
    assert result.returncode == 3 and sent == 0
    line = _error(result.stderr)
    assert "nothing left under --max-tokens-total 1,500: earlier runs in" in line and "Raise the cap" in line
