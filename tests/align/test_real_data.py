"""The released MentalAlign-70k files: MentalBench's published model-level ICCs."""

from __future__ import annotations

from pathlib import Path

import pytest

from trustmh.align import analyze
from trustmh.data.loaders.mentalalign import (
    HUMAN_FILE,
    HUMAN_PREFIX,
    JUDGE_FILES,
    JUDGE_PREFIX,
    SELF_FAMILY,
    count_rows,
    read_ratings,
)
from trustmh.mentalalign.schema import STRICT_SCORE_RANGE

# MentalBench-Align, "ICC Reliability Analysis" (model level, own family excluded):
# (ICC(C,1), ICC(A,1)) per judge and attribute.
PUBLISHED = {
    "claude": [
        (0.881, 0.837),
        (0.915, 0.915),
        (0.730, 0.743),
        (0.685, 0.597),
        (0.906, 0.474),
        (0.900, 0.742),
        (0.791, 0.806),
    ],
    "gpt-4o": [
        (0.849, 0.475),
        (0.856, 0.681),
        (0.532, 0.243),
        (0.480, 0.279),
        (0.835, 0.288),
        (0.800, 0.457),
        (0.823, 0.485),
    ],
    "gemini": [
        (0.855, 0.682),
        (0.878, 0.877),
        (0.306, 0.137),
        (0.377, 0.222),
        (0.838, 0.380),
        (0.734, 0.385),
        (0.362, 0.180),
    ],
    "o4-mini": [
        (0.948, 0.786),
        (0.918, 0.908),
        (0.342, 0.140),
        (0.259, 0.117),
        (0.883, 0.499),
        (0.871, 0.660),
        (0.871, 0.592),
    ],
}
ATTRS = ("Guidance", "Informativeness", "Relevance", "Safety", "Empathy", "Helpfulness", "Understanding")


def _tables(folder: Path, low: float):
    human = read_ratings(folder / HUMAN_FILE, HUMAN_PREFIX, (low, 5.0))
    judges = {name: read_ratings(folder / file, JUDGE_PREFIX, (low, 5.0)) for name, file in JUDGE_FILES.items()}
    return human, judges


@pytest.fixture(scope="module")
def tables_zero_kept(mentalalign_dir: Path):
    return _tables(mentalalign_dir, 0.0)


def test_count_rows(mentalalign_dir: Path) -> None:
    assert count_rows(mentalalign_dir.parent) == 1000


def test_reproduces_mentalbench_model_level_iccs(tables_zero_kept) -> None:
    # MentalBench kept the human file's all-zero cells as scores; with them kept we agree
    # with the published table to rounding (<= 0.005; cells they parsed differently).
    human, judges = tables_zero_kept
    result = analyze(human, judges, {k: [v] for k, v in SELF_FAMILY.items()}, level="model", n_boot=0)
    for judge, published in PUBLISHED.items():
        for attr, (c1, a1) in zip(ATTRS, published, strict=True):
            row = result.select(level="model", judge=judge, attribute=attr)[0]
            assert row.n == 9
            assert row.icc_c1 == pytest.approx(c1, abs=0.005), (judge, attr)
            assert row.icc_a1 == pytest.approx(a1, abs=0.005), (judge, attr)


def test_strict_range_excludes_out_of_range_and_counts_it(mentalalign_dir: Path) -> None:
    human = read_ratings(mentalalign_dir / HUMAN_FILE, HUMAN_PREFIX, STRICT_SCORE_RANGE)
    judge = read_ratings(mentalalign_dir / JUDGE_FILES["gpt-4o"], JUDGE_PREFIX, STRICT_SCORE_RANGE)
    result = analyze(human, {"gpt-4o": judge}, {"gpt-4o": ["gpt4o"]}, n_boot=50)
    row = result.select(level="item", judge="gpt-4o", attribute="Guidance")[0]
    assert row.unparsed > 0 and row.missing > 0
    assert row.n + row.unparsed + row.missing == 1000 * 9
    assert 0 < row.icc_c1 < 1 and row.icc_c1_ci[0] < row.icc_c1 < row.icc_c1_ci[1]
