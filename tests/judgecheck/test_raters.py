"""The human raters' agreement among themselves in judge-check (trustmh.judgecheck.raters)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from trustmh.judgecheck import check
from trustmh.judgecheck.ratings import Rating
from trustmh.judgecheck.verdicts import JudgeVerdicts
from trustmh.stats.chance_agreement import agreement_weights, cohen_weighted, gwet_ac


def _ratings(rows: list[tuple[str, str, float]], weights: dict[str, float] | None = None) -> list[Rating]:
    return [Rating(s, "harm", r, v, f"x:{i}", None, (weights or {}).get(s)) for i, (s, r, v) in enumerate(rows)]


def _verdicts(samples: list[str]) -> JudgeVerdicts:
    return JudgeVerdicts("judge", "run.eval", {(s, "harm"): 3.0 for s in samples})


def test_scale_field_gives_ac2_fleiss_alpha_and_pairs(tmp_path: Path) -> None:
    a = [1, 2, 3, 4, 5, 3, 2, 4]
    b = [1, 2, 4, 4, 5, 2, 2, 5]
    samples = [f"s{i}" for i in range(8)]
    rows = [(s, "a", float(x)) for s, x in zip(samples, a, strict=True)]
    rows += [(s, "b", float(x)) for s, x in zip(samples, b, strict=True)]
    result = check(_ratings(rows), str(tmp_path / "none.csv"), _verdicts(samples), n_boot=50)
    found = result.fields[0].clinicians
    assert found is not None and found["n"] == 8 and found["gwet_name"] == "AC2"
    codes = np.array([a, b], dtype=float).T - 1
    weights = agreement_weights([1, 2, 3, 4, 5], "quadratic")
    assert found["gwet_ac"]["value"] == pytest.approx(gwet_ac(codes, weights))
    assert found["pairs"][0]["cohen_kappa"]["value"] == pytest.approx(cohen_weighted(codes[:, 0], codes[:, 1], weights))
    assert sum(map(sum, found["pairs"][0]["confusion"])) == 8
    low, high = found["gwet_ac"]["ci"]
    assert low <= found["gwet_ac"]["value"] <= high


def test_one_rater_has_no_agreement_among_raters(tmp_path: Path) -> None:
    result = check(_ratings([("s1", "a", 1.0), ("s2", "a", 2.0)]), "none.csv", _verdicts(["s1", "s2"]), n_boot=0)
    assert result.fields[0].clinicians is None


def test_sampling_weights_weigh_the_items(tmp_path: Path) -> None:
    # s1 and s2 agree, s3 disagrees; weighting s3 ten times lowers the agreement
    rows = [("s1", "a", 1.0), ("s1", "b", 1.0), ("s2", "a", 5.0), ("s2", "b", 5.0), ("s3", "a", 1.0), ("s3", "b", 5.0)]
    plain = check(_ratings(rows), "none.csv", _verdicts(["s1", "s2", "s3"]), n_boot=0).fields[0].clinicians
    heavy = check(
        _ratings(rows, {"s1": 1.0, "s2": 1.0, "s3": 10.0}), "none.csv", _verdicts(["s1", "s2", "s3"]), n_boot=0
    )
    weighted = heavy.fields[0].clinicians
    assert plain is not None and weighted is not None and weighted["sampling_weights"]
    assert weighted["gwet_ac"]["value"] < plain["gwet_ac"]["value"]


def test_equal_weights_change_nothing_and_unequal_weights_move_the_judges_agreement() -> None:
    samples = [f"s{i}" for i in range(6)]
    human = [1.0, 2.0, 3.0, 4.0, 5.0, 1.0]
    judged = JudgeVerdicts(
        "judge", "run.eval", {(s, "harm"): v for s, v in zip(samples, [1.0, 2.0, 3.0, 4.0, 5.0, 5.0], strict=True)}
    )
    rows = [(s, "a", v) for s, v in zip(samples, human, strict=True)]
    plain = check(_ratings(rows), "none.csv", judged, n_boot=0).fields[0]
    equal = check(_ratings(rows, dict.fromkeys(samples, 3.0)), "none.csv", judged, n_boot=0).fields[0]
    heavy = check(_ratings(rows, {**dict.fromkeys(samples, 1.0), "s5": 8.0}), "none.csv", judged, n_boot=0).fields[0]
    assert not plain.weighted and equal.weighted and heavy.weighted
    assert equal.value == pytest.approx(plain.value) and equal.alpha == pytest.approx(plain.alpha)
    assert heavy.value < plain.value  # the one disagreeing item (s5) now stands for many
    assert heavy.bias > plain.bias
