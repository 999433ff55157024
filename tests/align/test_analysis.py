"""The alignment analysis on synthetic files, checked against direct computations."""

from __future__ import annotations

from pathlib import Path

import krippendorff
import numpy as np
import pytest

from trustmh.align import ALL_ATTRIBUTES, analyze, analyze_files, category
from trustmh.core.errors import UserError
from trustmh.data.loaders.mentalalign import HUMAN_PREFIX, JUDGE_PREFIX, read_ratings
from trustmh.mentalalign.schema import DEFAULT_SCORE_RANGE, STRICT_SCORE_RANGE
from trustmh.stats.paired import icc_c1_a1


def _two_judges(fixtures: Path, seed: int = 5):
    """Judges a and b against the human ratings (judge a's "gamma" excluded), 200 bootstrap draws."""
    return analyze_files(
        fixtures / "human.csv",
        {"a": fixtures / "judge_a.csv", "b": fixtures / "judge_b.csv"},
        exclude={"a": ["gamma"]},
        n_boot=200,
        seed=seed,
        score_range=STRICT_SCORE_RANGE,
    )


@pytest.fixture
def result(fixtures: Path):
    return _two_judges(fixtures)


def _pairs(fixtures: Path, judge_file: str, keys: list[int], attr: int) -> tuple[np.ndarray, np.ndarray]:
    h = read_ratings(fixtures / "human.csv", HUMAN_PREFIX, STRICT_SCORE_RANGE).scores[:, keys, attr]
    j = read_ratings(fixtures / judge_file, JUDGE_PREFIX, STRICT_SCORE_RANGE).scores[:, keys, attr]
    return h, j


def test_cli_and_python_api_share_one_default_score_range(fixtures: Path) -> None:
    """``trustmh align`` and ``analyze_files`` both keep 0 scores by default, as MentalBench did."""
    import inspect

    from trustmh.cli.align import align_command

    cli_default = inspect.signature(align_command).parameters["min_score"].default.default
    for function in (analyze_files, read_ratings):
        assert inspect.signature(function).parameters["score_range"].default == DEFAULT_SCORE_RANGE
    assert DEFAULT_SCORE_RANGE == (cli_default, 5.0) == (0.0, 5.0)
    # The fixture's human 0 (103 beta, Guidance) is a score by default and unparsed when strict.
    assert read_ratings(fixtures / "human.csv", HUMAN_PREFIX).scores[2, 2, 0] == 0.0
    assert np.isnan(read_ratings(fixtures / "human.csv", HUMAN_PREFIX, STRICT_SCORE_RANGE).scores[2, 2, 0])


def test_category_cutoffs() -> None:
    assert category(0.355) == "GR" and category(0.356) == "MR"
    assert category(0.560) == "MR" and category(0.561) == "PR"
    assert category(float("nan")) is None


def test_rows_cover_judges_attributes_levels(result) -> None:
    assert len(result.rows) == 2 * len(ALL_ATTRIBUTES) * 2
    assert {r.level for r in result.rows} == {"model", "item"}
    row = result.select(level="model", judge="a", attribute="Guidance")[0]
    assert row.n == 3 and row.excluded == ("gamma",)
    assert result.select(level="model", judge="b", attribute="Guidance")[0].n == 4


def test_model_level_is_icc_of_model_means(fixtures: Path, result) -> None:
    h, j = _pairs(fixtures, "judge_a.csv", [0, 1, 2], 0)
    ok = np.isfinite(h) & np.isfinite(j)
    hm = np.array([h[ok[:, k], k].mean() for k in range(3)])
    jm = np.array([j[ok[:, k], k].mean() for k in range(3)])
    row = result.select(level="model", judge="a", attribute="Guidance")[0]
    c1, a1 = icc_c1_a1(hm, jm)  # cross-checked against pingouin in tests/stats
    assert row.icc_c1 == pytest.approx(c1) and row.icc_a1 == pytest.approx(a1)
    assert row.bias == pytest.approx((jm - hm).mean())


def test_item_level_uses_every_valid_pair(fixtures: Path, result) -> None:
    h, j = _pairs(fixtures, "judge_a.csv", [0, 1, 2], 0)
    ok = np.isfinite(h) & np.isfinite(j)
    row = result.select(level="item", judge="a", attribute="Guidance")[0]
    assert row.n == ok.sum() == 6 * 3 - 2  # 103 beta: human 0; 104 alpha: judge not JSON
    assert (row.icc_c1, row.icc_a1) == pytest.approx(icc_c1_a1(h[ok], j[ok]))
    assert row.unparsed == 2 and row.missing == 0
    assert row.mse == pytest.approx(np.mean((j[ok] - h[ok]) ** 2))
    lo, hi = row.icc_c1_ci
    assert lo <= hi and row.ci_width == pytest.approx(hi - lo)
    assert row.category == category(hi - lo)


def test_unparsed_and_missing_counts(result) -> None:
    b = result.select(level="item", judge="b", attribute="Guidance")[0]
    assert (b.unparsed, b.missing) == (1, 1)  # human 103 beta out of range, 102 gamma empty
    safety = result.select(level="item", judge="a", attribute="Safety")[0]
    assert safety.unparsed == 2  # judge 104 alpha + judge 105 original lacks Safety
    css = result.select(level="item", judge="a", attribute="CSS")[0]
    assert css.unparsed == 3  # any component unparsed
    assert result.cells["human"]["Guidance"] == {"unparsed": 1, "missing": 1}


def test_composites_are_component_means(fixtures: Path, result) -> None:
    human = read_ratings(fixtures / "human.csv", HUMAN_PREFIX, STRICT_SCORE_RANGE)
    css = human.scores[..., :4].mean(axis=-1)
    row = result.select(level="item", judge="b", attribute="CSS")[0]
    assert row.human_mean == pytest.approx(np.nanmean(css))


def test_krippendorff_matches_package(fixtures: Path, result) -> None:
    tables = [
        read_ratings(fixtures / f, p, STRICT_SCORE_RANGE)
        for f, p in (("human.csv", HUMAN_PREFIX), ("judge_a.csv", JUDGE_PREFIX), ("judge_b.csv", JUDGE_PREFIX))
    ]
    data = np.stack([t.scores[..., 2].ravel() for t in tables])
    expected = krippendorff.alpha(reliability_data=data, level_of_measurement="interval")
    assert result.krippendorff_alpha["Relevance"] == pytest.approx(expected)


def test_reproducible_and_seed_dependent(fixtures: Path, result) -> None:
    again = _two_judges(fixtures, seed=5)
    assert again.to_json() == result.to_json()
    other = _two_judges(fixtures, seed=6)
    assert other.rows[0].icc_c1 == result.rows[0].icc_c1
    assert other.rows[-1].icc_c1_ci != result.rows[-1].icc_c1_ci


def test_no_bootstrap_and_single_level(fixtures: Path) -> None:
    res = analyze_files(
        fixtures / "human.csv", {"b": fixtures / "judge_b.csv"}, level="item", n_boot=0, score_range=STRICT_SCORE_RANGE
    )
    assert {r.level for r in res.rows} == {"item"}
    assert all(np.isnan(r.icc_c1_ci[0]) and r.category is None for r in res.rows)


def test_bad_exclusions(fixtures: Path) -> None:
    human = read_ratings(fixtures / "human.csv", HUMAN_PREFIX, STRICT_SCORE_RANGE)
    judge = read_ratings(fixtures / "judge_b.csv", JUDGE_PREFIX, STRICT_SCORE_RANGE)
    with pytest.raises(UserError, match="no judge named 'x'"):
        analyze(human, {"b": judge}, exclude={"x": ["alpha"]})
    with pytest.raises(UserError, match="no response model 'delta'"):
        analyze(human, {"b": judge}, exclude={"b": ["delta"]})
    with pytest.raises(UserError, match="fewer than two"):
        analyze(human, {"b": judge}, exclude={"b": ["alpha", "beta", "gamma"]})


def test_model_without_valid_pairs_drops_out(fixtures: Path, tmp_path: Path) -> None:
    import csv

    with open(fixtures / "human.csv", newline="") as handle:
        rows = list(csv.reader(handle))
    gamma = [c.strip() for c in rows[0]].index("human_response_gamma")
    for row in rows[1:]:
        row[gamma] = ""
    with open(tmp_path / "human.csv", "w", newline="") as handle:
        csv.writer(handle).writerows(rows)
    with np.errstate(all="raise"):
        res = analyze_files(
            tmp_path / "human.csv", {"b": fixtures / "judge_b.csv"}, n_boot=50, score_range=STRICT_SCORE_RANGE
        )
    row = res.select(level="model", judge="b", attribute="Empathy")[0]
    assert row.n == 3 and row.missing == 6 and np.isfinite(row.icc_c1)
