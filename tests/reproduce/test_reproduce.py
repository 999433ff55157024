"""`trustmh reproduce`: upstream's released outputs re-scored beside its published figures."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from trustmh.reproduce import explain
from trustmh.reproduce.privacy import release_defect
from trustmh.reproduce.rows import EXPLAINED, MATCH, NOT_RESCORABLE, UNEXPLAINED, UNVERIFIED, ReproRow
from trustmh.reproduce.table import markdown, reproduce_rows, unexplained


@pytest.fixture(scope="module")
def rows(shared_data: Path) -> list[ReproRow]:
    return reproduce_rows(shared_data)


def test_every_released_output_is_covered(rows: list[ReproRow]) -> None:
    benchmarks = {row.benchmark for row in rows}
    assert len(benchmarks) == 6
    per = {b: {(r.task, r.model, r.metric) for r in rows if r.benchmark == b} for b in benchmarks}
    assert sum(len(v) for v in per.values()) == len(rows)  # no duplicate row
    assert len([r for r in rows if "tier 1" in r.benchmark]) == 6
    assert len([r for r in rows if "2a/2b" in r.benchmark]) == 12
    assert len([r for r in rows if "PsyLeak" in r.benchmark]) == 6 * 9
    assert len([r for r in rows if "EthicMH" in r.benchmark]) == 12 * 6
    assert len([r for r in rows if "ICC" in r.benchmark]) == 4 * 7 * 2  # judges x attributes x ICCs
    assert len([r for r in rows if "bias" in r.benchmark]) == 4 * 7 * 4  # human, judge mean, bias, MSE


def test_upstream_parsing_reproduces_each_figure_it_can(rows: list[ReproRow]) -> None:
    for row in rows:
        if row.upstream is None:
            # upstream's computation is not released: shown, declared, never counted as reproduced
            assert row.status in (MATCH, NOT_RESCORABLE, UNVERIFIED) and row.explanation
        elif row.release_defect:
            assert "deepseek" in row.model  # the one release whose outputs are another run
        else:
            assert row.upstream_matches, (row.model, row.metric, row.published, row.upstream)


def test_corrected_differences_are_each_declared(rows: list[ReproRow]) -> None:
    assert unexplained(rows) == []
    differing = [
        r
        for r in rows
        if r.upstream is not None and r.corrected is not None and not r.corrected_matches and not r.release_defect
    ]
    assert differing  # the corrected parser changes some published figures ...
    for row in differing:  # ... and each one names the declared reason
        assert row.status == EXPLAINED and "parser" in row.explanation


def test_the_tier1_label_scan_changes_claudes_figure(rows: list[ReproRow]) -> None:
    (claude,) = [r for r in rows if "tier 1" in r.benchmark and r.model.startswith("claude")]
    assert claude.upstream_matches and not claude.corrected_matches
    assert claude.corrected is not None and claude.corrected > claude.upstream  # reading "3)" as 3 helps


def test_status_needs_a_declaration() -> None:
    base = dict(benchmark="b", task="t", model="m", metric="x", n=10, published=0.5, tolerance=1e-9)
    assert ReproRow(**base, upstream=0.5, corrected=0.5).status == MATCH
    assert ReproRow(**base, upstream=0.5, corrected=0.6).status == UNEXPLAINED
    assert ReproRow(**base, upstream=0.5, corrected=0.6, explanation="why").status == EXPLAINED
    # upstream's own parsing missing the figure is never explained by a deviation of ours
    assert ReproRow(**base, upstream=0.4, corrected=0.6, explanation="why").status == UNEXPLAINED
    assert ReproRow(**base, upstream=0.4, corrected=0.4, release_defect="another run").status == EXPLAINED
    assert ReproRow(**base, upstream=None, corrected=None, explanation="gap").status == NOT_RESCORABLE
    assert ReproRow(**base, upstream=None, corrected=None).status == UNEXPLAINED
    assert ReproRow(**base, upstream=None, corrected=0.5).status == MATCH
    assert ReproRow(**base, upstream=None, corrected=0.6, explanation="gap").status == UNVERIFIED
    rounded = dict(base, tolerance=0.005 + 1e-9, published=0.55)
    assert ReproRow(**rounded, upstream=0.5549, corrected=0.5549).status == MATCH
    assert ReproRow(**rounded, upstream=0.556, corrected=0.556).status == UNEXPLAINED


def test_release_defect_names_missing_and_repeated_scenarios() -> None:
    def record(scenario: int) -> dict:
        return {"data": {"scenario_idx": scenario}}

    complete = [record(s) for s in range(3) for _ in range(4)]
    assert release_defect(complete) == ""
    broken = [record(s) for s in (0, 1, 1, 3) for _ in range(4)]
    assert "[1] recorded twice" in release_defect(broken) and "[2] missing" in release_defect(broken)


def test_removing_a_declaration_makes_the_command_fail(shared_data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from trustmh.cli.main import app

    runner = CliRunner()
    ok = runner.invoke(app, ["reproduce", "--data-dir", str(shared_data), "--json", "-"])
    assert ok.exit_code == 0, ok.output
    payload = json.loads(ok.stdout)
    assert payload["unexplained"] == 0 and len(payload["rows"]) == 312
    assert all(r["published"] is None or math.isfinite(r["published"]) for r in payload["rows"])
    monkeypatch.setattr("trustmh.reproduce.privacy.explanation", lambda task, metric: "")
    failed = runner.invoke(app, ["reproduce", "--data-dir", str(shared_data)])
    assert failed.exit_code == 1 and "no declared explanation" in failed.output


def test_a_changed_upstream_file_is_exit_2_naming_both_hashes(tmp_path: Path, shared_data: Path) -> None:
    from typer.testing import CliRunner

    from trustmh.cli.main import app

    copy = tmp_path / "trustmh" / "release"
    copy.mkdir(parents=True)
    (copy / "privacy.zip").write_bytes((shared_data / "trustmh/release/privacy.zip").read_bytes() + b"x")
    result = CliRunner().invoke(app, ["reproduce", "--data-dir", str(tmp_path)])
    assert result.exit_code == 2 and "differs from the pinned 9db6f88f5b56" in " ".join(result.output.split())


def test_an_edited_data_file_is_exit_2_naming_it(tmp_path: Path, shared_data: Path) -> None:
    """Issue 25: a released dataset file whose sha256 is not the catalogue's is refused (a
    reproduction on edited data says nothing about upstream's figures); no --allow-modified."""
    from typer.testing import CliRunner

    from trustmh.cli.main import app

    edited_folder = tmp_path / "mentalalign70k"  # the released folder, the human ratings file edited
    for entry in shared_data.iterdir():
        if entry.name != edited_folder.name:
            (tmp_path / entry.name).symlink_to(entry)
    edited_folder.mkdir()
    for entry in (shared_data / edited_folder.name).iterdir():
        (edited_folder / entry.name).symlink_to(entry)
    (edited_folder / "human_judge.xlsx").unlink()
    (edited_folder / "human_judge.xlsx").write_bytes(
        (shared_data / "mentalalign70k/human_judge.xlsx").read_bytes() + b"x"
    )
    result = CliRunner().invoke(app, ["reproduce", "--data-dir", str(tmp_path)])
    shown = " ".join(result.output.split())
    assert result.exit_code == 2 and "human_judge.xlsx: sha256" in shown and "differs from the catalogue's" in shown


def test_markdown_has_one_table_per_benchmark(rows: list[ReproRow]) -> None:
    text = markdown(rows)
    assert text.count("#### ") == 6 and "| published |" in text
    assert explain.release_gap("psyleak_proxy") in text


def test_alignment_reads_the_published_tables_and_never_claims_unverified_cells(rows: list[ReproRow]) -> None:
    aligned = [r for r in rows if r.benchmark.startswith("MentalBench-Align")]
    assert all(r.upstream is None and r.published is not None and r.corrected is not None for r in aligned)
    assert {r.status for r in aligned} <= {MATCH, UNVERIFIED}
    for row in aligned:
        assert (row.status == MATCH) == (abs(row.corrected - row.published) <= 0.0005 + 1e-9)
    icc = [r for r in aligned if "ICC" in r.benchmark]
    assert all(r.n == 9 for r in icc)  # nine models once each judge's own family is excluded


def test_benchmarks_with_nothing_released_are_named_with_the_reason(shared_data: Path) -> None:
    from typer.testing import CliRunner

    from trustmh.cli.main import app

    for args in ([], ["--markdown"]):
        result = CliRunner().invoke(app, ["reproduce", "--data-dir", str(shared_data), *args])
        shown = " ".join(result.output.split())
        assert "Not reproduced:" in shown and "Psychosis-bench (crisis_psychosis_bench)" in shown
        assert "no model outputs" in shown
    result = CliRunner().invoke(app, ["reproduce", "--data-dir", str(shared_data), "--json", "-"])
    names = [entry["benchmark"] for entry in json.loads(result.output)["not_reproduced"]]
    assert any(name.startswith("Psychosis-bench") for name in names)
