"""The pieces of benchmarks/contention_bench.py and default_run_bench.py that decide a verdict:
the prefill target relative to the floor, output comparison, each phase's environment, and the
competitor's CPU accounting."""

from __future__ import annotations

import importlib
import sys
import time
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def benches():
    sys.path.insert(0, str(BENCHMARKS))
    try:
        yield importlib.import_module("contention_bench"), importlib.import_module("default_run_bench")
    finally:
        sys.path.remove(str(BENCHMARKS))
        for name in ("contention_bench", "default_run_bench", "prefill_floor"):
            sys.modules.pop(name, None)


def run_result(default_run_bench, outputs, prefilled=0, floor=None):
    result = default_run_bench.RunResult("after", 1.0, outputs=outputs, floor=floor or {})
    result.rows.append(default_run_bench.TaskRow("t", len(outputs), 1.0, prefilled, 0, 0))
    return result


def test_the_prefill_target_is_a_ratio_to_the_runs_own_floor(benches):
    _, default_run_bench = benches
    assert default_run_bench.PREFILL_FLOOR_RATIO == 1.05
    ratio = default_run_bench.prefill_over_floor
    assert ratio(run_result(default_run_bench, {}, prefilled=1050, floor={"a": 600, "b": 400})) == 1.05
    assert ratio(run_result(default_run_bench, {}, prefilled=1051, floor={"a": 1000})) > 1.05
    assert ratio(run_result(default_run_bench, {}, prefilled=5, floor={})) == float("inf")


def test_outputs_must_match_sample_for_sample_and_none_may_be_missing(benches):
    contention_bench, default_run_bench = benches
    same = {("a", "1", 1): "yes", ("a", "2", 1): "no"}
    reference = run_result(default_run_bench, same)
    assert contention_bench.outputs_identical(reference, run_result(default_run_bench, dict(same)))[0]
    changed = run_result(default_run_bench, {**same, ("a", "2", 1): "maybe"})
    assert contention_bench.outputs_identical(reference, changed) == (False, 2, 0, [("a", "2", 1)])
    # A sample asked a different prompt (an old ref from before a prompt change) is counted
    # apart, not compared; with no sample left to compare nothing is called identical.
    reworded = run_result(default_run_bench, {**same, ("a", "2", 1): "maybe"})
    reworded.prompts = {("a", "2", 1): "a reworded prompt"}
    assert contention_bench.outputs_identical(reference, reworded) == (True, 1, 1, [])
    reworded.prompts = {key: "a reworded prompt" for key in same}
    assert contention_bench.outputs_identical(reference, reworded) == (False, 0, 2, [])
    missing = run_result(default_run_bench, {("a", "1", 1): "yes"})
    assert not contention_bench.outputs_identical(reference, missing)[0]
    # A conversation task whose user side samples is left out of the comparison.
    sampled = {(contention_bench.SAMPLED_TASKS[0], "1", 1): "whatever"}
    assert contention_bench.outputs_identical(reference, run_result(default_run_bench, {**same, **sampled}))[0]


def test_each_phase_runs_its_codes_threading_defaults(benches, monkeypatch, tmp_path):
    contention_bench, _ = benches
    for name, value in {"TRUSTMH_LLAMA_THREADS": "1", "GOMP_SPINCOUNT": "5", "OMP_WAIT_POLICY": "ACTIVE"}.items():
        monkeypatch.setenv(name, value)
    env = contention_bench.phase_environment(tmp_path / "src", tmp_path, "new busy", {"GOMP_SPINCOUNT": "7"})
    assert "TRUSTMH_LLAMA_THREADS" not in env and "OMP_WAIT_POLICY" not in env
    assert env["GOMP_SPINCOUNT"] == "7" and env["PYTHONPATH"] == str(tmp_path / "src")
    assert (
        env["INSPECT_CACHE_DIR"]
        != contention_bench.phase_environment(tmp_path, tmp_path, "old idle", {})["INSPECT_CACHE_DIR"]
    )
    assert contention_bench.parse_env(["A=1", "B=x=y"]) == {"A": "1", "B": "x=y"}
    with pytest.raises(SystemExit, match="KEY=VALUE"):
        contention_bench.parse_env(["oops"])


def test_a_competitor_burns_cpu_until_stopped_and_ends_by_itself(benches):
    contention_bench, _ = benches
    competitors = contention_bench.start_competitors(1, limit=60)
    stat = Path(f"/proc/{competitors[0].pid}/stat")
    deadline = time.monotonic() + 30  # a loaded machine may give it little of a core
    while time.monotonic() < deadline and sum(int(f) for f in stat.read_text().split()[13:15]) < 30:
        time.sleep(0.1)
    seconds = contention_bench.stop_competitors(competitors)
    assert 0.3 <= seconds < 40  # its CPU time, as counted for the report
    assert competitors[0].returncode is not None
    bounded = contention_bench.start_competitors(1, limit=0.3)
    bounded[0].wait(timeout=30)  # bounded: ends on its own
    assert bounded[0].returncode == 0
