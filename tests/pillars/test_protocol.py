"""The per-task protocol declarations: one registry, read by the CLI, the log and the report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import trustmh._registry  # noqa: F401  (every task, so every protocol, is declared)
from trustmh.cli.main import app
from trustmh.core.errors import UserError
from trustmh.data.upstream import UPSTREAM_FILES
from trustmh.scoring.verbatim import check_parser
from trustmh.tasking.protocol import Deviation, TaskProtocol, all_protocols, protocol_of

MINE = (
    "privacy_confaide_tier1",
    "privacy_confaide_tier2a",
    "privacy_confaide_tier2b",
    "privacy_psyleak",
    "ethics_ethicmh",
)


def test_declarations_name_pinned_files_and_explain_metrics() -> None:
    declared = {p.task: p for p in all_protocols()}
    assert set(MINE) <= set(declared)
    for protocol in declared.values():
        # a task that follows no pinned upstream file says whose protocol it is instead (its label)
        assert protocol.upstream or protocol.label, protocol.task
        assert all(key in UPSTREAM_FILES for key in protocol.upstream), protocol.task
        assert protocol.verbatim
        for deviation in protocol.deviations:
            assert deviation.what and deviation.why and deviation.effect
    assert protocol_of("trustmh/privacy_psyleak") is declared["privacy_psyleak"]
    assert declared["privacy_confaide_tier1"].explains("pearson_r") is not None
    assert declared["privacy_confaide_tier1"].explains("no such metric") is None


def test_metadata_is_json_ready() -> None:
    protocol = TaskProtocol("t", ("k",), ("v",), (Deviation("w", "y", "e", ("m",)),), label="L")
    data = json.loads(json.dumps(protocol.as_metadata()))
    assert data["deviations"][0] == {"what": "w", "why": "y", "effect": "e", "metrics": ["m"]}
    assert data["label"] == "L"


def test_parser_argument_is_checked() -> None:
    assert check_parser("upstream") == "upstream"
    with pytest.raises(UserError, match="-T parser must be one of corrected, upstream"):
        check_parser("mine")


def test_tasks_protocol_cli() -> None:
    runner = CliRunner()
    shown = runner.invoke(app, ["tasks", "--protocol", "privacy_psyleak"])
    assert shown.exit_code == 0, shown.output
    text = " ".join(shown.output.split())
    assert "Qiyuan0130/TrustMH_Bench@94d65db" in text and "deviations:" in text and "parser=NAME" in text
    as_json = runner.invoke(app, ["tasks", "--protocol", "ethics_ethicmh", "--json", "-"])
    assert json.loads(as_json.stdout)["task"] == "ethics_ethicmh"
    unknown = runner.invoke(app, ["tasks", "--protocol", "nope"])
    assert unknown.exit_code == 2 and "declares no upstream protocol" in unknown.output


def test_built_tasks_carry_protocol_and_parser_in_their_metadata(shared_data: Path) -> None:
    from trustmh.pillars.ethics.tasks import ethics_ethicmh
    from trustmh.pillars.privacy.tasks import privacy_psyleak

    built = privacy_psyleak(source="benchmark", data_dir=str(shared_data), parser="upstream")
    assert built.metadata["parser"] == "upstream"
    assert built.metadata["protocol"]["mode"] == "benchmark"
    assert built.metadata["protocol"]["parsers"]["upstream"]
    starter = ethics_ethicmh(source="starter")
    assert starter.metadata["protocol"]["mode"] == "starter" and starter.metadata["parser"] == "corrected"
    with pytest.raises(UserError):
        privacy_psyleak(source="starter", parser="bogus")


def test_data_status_lists_the_pinned_upstream_files(shared_data: Path) -> None:
    result = CliRunner().invoke(app, ["data", "status", "--data-dir", str(shared_data), "--json", "-"])
    assert result.exit_code == 0, result.output
    upstream = [row for row in json.loads(result.stdout) if "upstream_file" in row]
    assert {row["upstream_file"] for row in upstream} == set(UPSTREAM_FILES)
    assert all(row["check"] == "pinned" for row in upstream)
