"""``trustmh audit EXPORT --sample-judge N --judge M --batch judge``: the sample's judge calls go
through the provider's batch API and give the same verdicts and population rates as direct calls;
``--dry-run`` prices them at the batch price and sends nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.audit.audit_helpers import RubricJudge
from tests.audit.warehouse_helpers import COLUMNS, write_hive_export
from tests.doubles.batch_double import BatchDouble
from trustmh.audit.sample import JUDGED_LOGS
from trustmh.audit.sampled_judge import POPULATION_RATES_FILE, judged_values
from trustmh.cli.main import app

runner = CliRunner()
KEY = "sk-ant-test-audit-batch-0000"


def _sample_audit(export: Path, out: Path, judge: str, *extra: str) -> list[str]:
    return ["audit", str(export), "--columns", COLUMNS, "--log-dir", str(out), "--sample-judge", "10",
            "--seed", "3", "--judge", judge, *extra]  # fmt: skip


def _judged(out: Path) -> dict[str, dict[str, Any]]:
    (log,) = [p for p in (out / JUDGED_LOGS).glob("*.eval")]
    return judged_values(str(log))


@pytest.fixture
def fast_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    # inspect's batcher looks at its queue every 15 s; the double answers within 0.1 s
    monkeypatch.setattr("inspect_ai.model._providers.util.batch.DEFAULT_BATCH_TICK", 0.2)
    monkeypatch.setattr("inspect_ai.model._providers.util.batch.DEFAULT_SEND_DELAY", 0.2)


@pytest.mark.slow
def test_batched_judging_gives_the_verdicts_of_direct_calls(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fast_batches: None
) -> None:
    export = write_hive_export(tmp_path / "export", copies=2)
    judge = RubricJudge()
    with BatchDouble(processing_delay=0.1, responder=judge) as api:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", api.anthropic_base_url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
        # names of their own: inspect memoizes a model (and its batcher) per process by name
        direct = runner.invoke(app, _sample_audit(export, tmp_path / "direct", "anthropic/sj-direct"))
        assert direct.exit_code == 0, direct.output
        assert api.state.batches_created == 0
        direct_calls = len(judge.received)
        batched = runner.invoke(
            app, _sample_audit(export, tmp_path / "batched", "anthropic/sj-batched", "--batch", "judge")
        )
        assert batched.exit_code == 0, batched.output
    assert direct_calls > 0 and api.state.batches_created >= 1
    assert sum(api.state.submissions.values()) == len(judge.received) - direct_calls == direct_calls
    verdicts = _judged(tmp_path / "batched")
    assert verdicts == _judged(tmp_path / "direct")
    assert any(v.get("validated") == 1 for v in verdicts.values())  # the planted delusion, judged both ways
    rates = [json.loads((tmp_path / run / POPULATION_RATES_FILE).read_text()) for run in ("direct", "batched")]
    assert rates[0] == rates[1]


def test_dry_run_prices_the_batched_sample_and_sends_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    export = write_hive_export(tmp_path / "export", copies=2)
    prices = tmp_path / "prices.yaml"
    prices.write_text("anthropic/sj-dry: {input: 3, output: 15, batch: 0.5}\n", encoding="utf-8")
    judge = RubricJudge()
    with BatchDouble(responder=judge) as api:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", api.anthropic_base_url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
        args = _sample_audit(export, tmp_path / "out", "anthropic/sj-dry", "--dry-run", "--prices", str(prices))
        listed = runner.invoke(app, args)
        batched = runner.invoke(app, [*args, "--batch", "judge"])
    assert listed.exit_code == 0 and batched.exit_code == 0, listed.output + batched.output
    assert judge.received == [] and api.state.batches_created == 0
    text = " ".join(batched.output.split())
    assert "priced at the batch price" in text and "anthropic/sj-dry" in text

    def cost(output: str) -> float:
        line = next(line for line in output.splitlines() if "total estimated cost" in line)
        return float(line.split("USD")[0].split()[-1].replace(",", "").lstrip("$"))

    assert cost(listed.output) > 0.1  # printed to the cent: half of it is told apart from the whole
    assert cost(batched.output) == pytest.approx(cost(listed.output) / 2, abs=0.006)


def test_batch_needs_a_judge_and_batches_only_the_judge(tmp_path: Path) -> None:
    export = write_hive_export(tmp_path / "export")
    alone = runner.invoke(app, ["audit", str(export), "--columns", COLUMNS, "--batch", "judge"])
    assert alone.exit_code == 2 and "give --judge MODEL" in alone.output
    model = runner.invoke(
        app, [*_sample_audit(export, tmp_path / "out", "anthropic/sj-model", "--dry-run"), "--batch", "model"]
    )
    assert model.exit_code == 2 and "--batch judge" in model.output
