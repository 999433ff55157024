"""``trustmh audit EXPORT --sample-judge N --judge M``: the sample judged through the inspect audit,
population rates with CIs; ``--dry-run`` prices it and sends nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.audit.audit_helpers import RubricJudge
from tests.audit.warehouse_helpers import COLUMNS, write_hive_export
from tests.doubles.openai_double import OpenAIDouble
from trustmh.audit.sample import SAMPLE_EXPORT
from trustmh.cli.main import app

runner = CliRunner()


def audit(export: Path, out: Path, *extra: str) -> list[str]:
    return [
        "audit",
        str(export),
        "--columns",
        COLUMNS,
        "--log-dir",
        str(out),
        "--sample-judge",
        "12",
        "--seed",
        "1",
        *extra,
    ]


def test_dry_run_prices_the_sample_and_sends_nothing(tmp_path: Path) -> None:
    export = write_hive_export(tmp_path / "export", copies=4)
    prices = tmp_path / "prices.yaml"
    prices.write_text("openai/test-judge: {input: 2.5, output: 10}\n", encoding="utf-8")
    judge = RubricJudge()
    with pytest.MonkeyPatch.context() as patch, OpenAIDouble(responder=judge) as server:
        patch.setenv("OPENAI_BASE_URL", server.base_url)
        patch.setenv("OPENAI_API_KEY", "sk-test-audit-0000")
        args = audit(export, tmp_path / "out", "--judge", "openai/test-judge", "--dry-run", "--prices", str(prices))
        result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert judge.received == []
    text = " ".join(result.output.split())
    assert "judge sample (seed 1):" in text and "of 52 conversations" in text
    assert "total estimated cost" in text and "USD" in text  # the price of the judge calls
    sample = (tmp_path / "out" / SAMPLE_EXPORT).read_text(encoding="utf-8").splitlines()
    assert 12 <= len(sample) <= 16  # about the budget (every stratum gets at least 2)


def test_judged_sample_gives_population_rates_with_cis(tmp_path: Path) -> None:
    export = write_hive_export(tmp_path / "export", copies=4)
    judge = RubricJudge()
    with pytest.MonkeyPatch.context() as patch, OpenAIDouble(responder=judge) as server:
        patch.setenv("OPENAI_BASE_URL", server.base_url)
        patch.setenv("OPENAI_API_KEY", "sk-test-audit-0000")
        result = runner.invoke(app, [*audit(export, tmp_path / "out", "--judge", "openai/test-judge"), "--no-report"])
    assert result.exit_code == 0, result.output
    assert judge.received, "the sample went to the judge"
    rates = json.loads((tmp_path / "out" / "audit-population-rates.json").read_text(encoding="utf-8"))
    missed = rates["no_intervention"]
    assert missed["population"] == 52 and 10 <= missed["judged"] <= 16  # the 4 without a reply are not judged
    assert 0 <= missed["ci"][0] <= missed["rate"] <= missed["ci"][1] <= 1
    assert "of conversations, estimated from" in " ".join(result.output.split())


def test_sample_judge_needs_a_judge(tmp_path: Path) -> None:
    export = write_hive_export(tmp_path / "export")
    result = runner.invoke(app, audit(export, tmp_path / "out"))
    assert result.exit_code == 2 and "give --judge MODEL" in result.output
