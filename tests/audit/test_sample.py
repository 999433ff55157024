"""The judge sample: allocation, seeded selection, recorded inclusion probabilities."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from tests.audit.warehouse_helpers import COLUMNS, write_hive_export
from trustmh.audit.sample import SAMPLE_FILE, STRATA_FILE, allocate, select_sample
from trustmh.cli.main import app


def test_allocation_takes_small_flagged_strata_whole_and_spreads_the_rest() -> None:
    sizes = {"flagged:missed_crisis": 30, "flagged:refused": 5000, "risk": 1000, "clear": 99_000}
    counts = allocate(sizes, ["flagged:missed_crisis", "flagged:refused"], budget=1000)
    assert counts["flagged:missed_crisis"] == 30  # all of it
    assert counts["flagged:refused"] == 470  # the rest of the flagged half
    assert counts["risk"] == 5 and counts["clear"] == 495  # proportional to size
    assert allocate({"clear": 10, "risk": 0}, [], budget=100) == {"clear": 10, "risk": 0}


def test_every_stratum_gets_at_least_two() -> None:
    counts = allocate({"clear": 1_000_000, "not_covered": 40}, [], budget=100)
    assert counts["not_covered"] == 2


@pytest.fixture(scope="module")
def passed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("sample")
    export = write_hive_export(folder / "export", copies=20)
    result = CliRunner().invoke(app, ["audit", str(export), "--columns", COLUMNS, "--log-dir", str(folder / "out")])
    assert result.exit_code == 0, result.output
    return folder / "out"


def test_sample_is_seeded_and_records_inclusion_probabilities(passed: Path) -> None:
    design = select_sample(passed, budget=40, seed=3)
    first = pq.read_table(passed / SAMPLE_FILE).to_pylist()
    assert select_sample(passed, budget=40, seed=3) == design
    assert pq.read_table(passed / SAMPLE_FILE).to_pylist() == first  # same seed, same sample
    select_sample(passed, budget=40, seed=4)
    assert pq.read_table(passed / SAMPLE_FILE).to_pylist() != first
    strata = json.loads((passed / STRATA_FILE).read_text(encoding="utf-8"))["strata"]
    assert sum(d["population"] for d in strata.values()) == 260
    for row in first:
        stratum = design[row["stratum"]]
        assert row["inclusion_probability"] == pytest.approx(stratum["sampled"] / stratum["population"])
    assert {row["stratum"] for row in first} >= {"flagged:missed_crisis", "clear"}
