"""judge-check and ``trustmh align`` on the same MentalAlign-70k pairs give the same ICC(A,1)
and Krippendorff's alpha: the two commands share ``trustmh.stats``, they do not duplicate it.

The released files are turned into the long format in memory (sample id
``<ConvID>/<response model>``, one field per attribute); nothing is written to the repo.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from trustmh.align import analyze
from trustmh.data.loaders.mentalalign import (
    HUMAN_FILE,
    HUMAN_PREFIX,
    JUDGE_FILES,
    JUDGE_PREFIX,
    OK,
    RatingTable,
    match_to,
    read_ratings,
)
from trustmh.judgecheck import check
from trustmh.judgecheck.ratings import Rating
from trustmh.judgecheck.verdicts import JudgeVerdicts
from trustmh.mentalalign.schema import ATTRIBUTES

JUDGE = "gpt-4o"
SCORE_RANGE = (0.0, 5.0)  # align's default (MentalBench kept the human file's zero cells)


def long_ratings(table: RatingTable, rater: str) -> list[Rating]:
    conv, key, attr = np.nonzero(table.status == OK)
    return [
        Rating(f"{table.conv_ids[c]}/{table.keys[k]}", ATTRIBUTES[a], rater, float(table.scores[c, k, a]), table.path)
        for c, k, a in zip(conv, key, attr, strict=True)
    ]


@pytest.fixture(scope="module")
def both(shared_data: Path):
    mentalalign_dir = shared_data / "mentalalign70k"
    human = read_ratings(mentalalign_dir / HUMAN_FILE, HUMAN_PREFIX, SCORE_RANGE)
    judge = match_to(human, read_ratings(mentalalign_dir / JUDGE_FILES[JUDGE], JUDGE_PREFIX, SCORE_RANGE))
    aligned = analyze(human, {JUDGE: judge}, level="item", n_boot=0)
    verdicts = JudgeVerdicts(JUDGE, judge.path, {(r.sample_id, r.field): r.value for r in long_ratings(judge, JUDGE)})
    checked = check(
        long_ratings(human, "experts"), human.path, verdicts, kinds=dict.fromkeys(ATTRIBUTES, "scale"), n_boot=0
    )
    return aligned, {row.field: row for row in checked.fields}


def test_same_icc_and_alpha_per_attribute(both) -> None:
    aligned, checked = both
    for attribute in ATTRIBUTES:
        row = aligned.select(level="item", judge=JUDGE, attribute=attribute)[0]
        mine = checked[attribute]
        assert mine.n == row.n_pairs  # the same pairs
        assert mine.value == pytest.approx(row.icc_a1, abs=1e-12), attribute
        assert mine.icc_c1 == pytest.approx(row.icc_c1, abs=1e-12), attribute
        assert mine.bias == pytest.approx(row.bias, abs=1e-12), attribute
        assert mine.alpha == pytest.approx(aligned.krippendorff_alpha[attribute], abs=1e-12), attribute
