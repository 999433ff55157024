"""align's corrected attribute means per response model (PPI++): labelled = conversations both
the humans and the judge scored, unlabelled = those only the judge scored."""

from __future__ import annotations

import numpy as np
import pytest

from trustmh.align.analysis import analyze
from trustmh.align.correction import corrected_means
from trustmh.data.loaders.mentalalign import MISSING, OK, RatingTable
from trustmh.mentalalign.schema import ATTRIBUTES, HUMAN_PREFIX, JUDGE_PREFIX
from trustmh.stats.ppi import ppi_mean

RNG = np.random.default_rng(5)
N_JUDGED, N_HUMAN = 60, 20  # the judge scored 60 conversations; humans rated the first 20


def table(prefix: str, conv: int, scores: np.ndarray, keys: tuple[str, ...] = ("mine", "other")) -> RatingTable:
    status = np.where(np.isfinite(scores), OK, MISSING).astype(np.int8)
    ids = tuple(str(i) for i in range(conv))
    return RatingTable(f"{prefix}.csv", prefix, ids, tuple(range(2, conv + 2)), keys, scores, status)


@pytest.fixture(scope="module")
def tables() -> tuple[RatingTable, RatingTable]:
    truth = RNG.integers(1, 6, (N_JUDGED, 2, len(ATTRIBUTES))).astype(float)
    judge = np.clip(truth + 1 + RNG.normal(0, 0.5, truth.shape).round(), 1, 5)  # generous
    return table(HUMAN_PREFIX, N_HUMAN, truth[:N_HUMAN]), table(JUDGE_PREFIX, N_JUDGED, judge)


def test_corrected_means_use_the_judge_only_conversations(tables: tuple[RatingTable, RatingTable]) -> None:
    human, judge = tables
    rows = {(r["model"], r["attribute"]): r for r in corrected_means(human, "j", judge)}
    empathy = rows[("mine", "Empathy")]
    a = ATTRIBUTES.index("Empathy")
    expected = ppi_mean(human.scores[:, 0, a], judge.scores[:N_HUMAN, 0, a], judge.scores[N_HUMAN:, 0, a])
    assert (empathy["n_labelled"], empathy["n_unlabelled"]) == (N_HUMAN, N_JUDGED - N_HUMAN)
    assert empathy["estimate"] == pytest.approx(expected.estimate)
    assert empathy["ci"] == pytest.approx(list(expected.ci))
    assert empathy["judge_only"]["n"] == N_JUDGED
    assert ("mine", "CSS") in rows and ("other", "ARS") in rows  # composites too


def test_excluded_and_unrated_models_are_not_corrected(tables: tuple[RatingTable, RatingTable]) -> None:
    human, judge = tables
    assert {r["model"] for r in corrected_means(human, "j", judge, excluded=("other",))} == {"mine"}
    unrated = table(JUDGE_PREFIX, N_JUDGED, judge.scores, keys=("mine", "yours"))
    assert {r["model"] for r in corrected_means(human, "j", unrated)} == {"mine"}


def test_fully_rated_data_gives_the_human_mean(tables: tuple[RatingTable, RatingTable]) -> None:
    human, judge = tables
    same = table(JUDGE_PREFIX, N_HUMAN, judge.scores[:N_HUMAN])
    result = analyze(human, {"j": same}, level="item", n_boot=0)
    for row in result.corrected:
        assert row["n_unlabelled"] == 0 and row["lam"] == 0.0
        assert row["estimate"] == pytest.approx(row["human_only"]["value"])
    assert result.to_json()["corrected_means"] == result.corrected
