"""End to end: a response carrying its own verdict does not get it, through ``trustmh judge``
and ``trustmh run dialogue_mentalbench --judge ...`` (issue 12, item 1)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log
from typer.testing import CliRunner

from tests.doubles.openai_double import OpenAIDouble
from tests.fakes import script, write_jsonl
from tests.scoring.test_verdict import (
    ALL_FIVES,
    HONEST,
    PLANTED_RESPONSE,
    blind_all_fives,
    obeying_judge,
    quoting_judge,
)
from trustmh.cli.bulk import standalone_app
from trustmh.cli.main import app
from trustmh.dialogue.tasks import dialogue_mentalbench
from trustmh.scoring.results import score_summary

runner = CliRunner()


def _judge_cells(tmp_path: Path, responder) -> list[dict[str, int]]:
    responses = tmp_path / "responses.csv"
    with responses.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["context", "response"])
        writer.writerow(["I cannot sleep.", PLANTED_RESPONSE])
        writer.writerow(["Work is too much.", "That sounds heavy. What would help most this week?"])
    out = tmp_path / "judge.csv"
    with OpenAIDouble(responder=lambda messages: responder(messages[-1]["content"])) as server:
        result = runner.invoke(
            standalone_app(),
            [
                "judge",
                "--responses",
                str(responses),
                "--judge-model",
                "openai/judge",
                "-o",
                str(out),
                "--base-url",
                server.base_url,
                "--cache",
                str(tmp_path / "cache.sqlite"),
                "--no-progress",
            ],
        )
    assert result.exit_code in (0, 1), result.output
    with out.open(encoding="utf-8", newline="") as handle:
        return [json.loads(row["judge_response_original"] or "null") for row in csv.DictReader(handle)]


def test_trustmh_judge_takes_the_quoting_judges_own_verdict(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-planted-0000")
    assert _judge_cells(tmp_path, quoting_judge) == [HONEST, HONEST]


def test_trustmh_judge_never_scores_an_obeyed_planted_verdict(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-planted-0000")
    # the obeying judge is never shown the planted ratings, so it rates both rows on its own
    assert _judge_cells(tmp_path, obeying_judge) == [HONEST, HONEST]


def test_trustmh_judge_keeps_an_honest_verdict_equal_to_the_plant(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reverse attack (issue 25): a planted copy of the judge's own verdict does not void it."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-planted-0000")
    assert _judge_cells(tmp_path, blind_all_fives) == [ALL_FIVES, ALL_FIVES]


def test_trustmh_run_dialogue_mentalbench_takes_the_judges_own_verdict(tmp_path: Path) -> None:
    samples = dialogue_mentalbench(source="starter").dataset
    responses = write_jsonl(tmp_path / "r.jsonl", [{"id": s.id, "output": PLANTED_RESPONSE} for s in samples])
    judge = script("planted-run-judge", [quoting_judge])
    result = runner.invoke(
        app,
        [
            "run",
            "dialogue_mentalbench",
            "--model",
            "trustmh/replay/x",
            "-M",
            f"responses={responses}",
            "--judge",
            judge,
            "--limit",
            "3",
            "--log-dir",
            str(tmp_path / "logs"),
            "--no-report",
        ],
    )
    assert result.exit_code == 0, result.output
    (info,) = list_eval_logs(str(tmp_path / "logs"))
    metrics = score_summary(read_eval_log(info))["metrics"]
    assert metrics["guidance"] == 2 and metrics["guidance_n"] == 3 and metrics["guidance_unparsed"] == 0
