"""The metric contract: estimate, CI, n, unparsed and the strict variant, built in one place."""

from __future__ import annotations

import math

import pytest
from inspect_ai.scorer import SampleScore, Score

from trustmh.scoring import metrics as m
from trustmh.scoring.results import fold_metrics
from trustmh.scoring.unparsed import UNPARSED, mark_unparsed
from trustmh.stats import proportion_estimate


def scores(*values: dict[str, object], meta: list[dict[str, object]] | None = None) -> list[SampleScore]:
    return [
        SampleScore(score=Score(value=v), sample_id=i, sample_metadata=(meta or [{}] * len(values))[i])
        for i, v in enumerate(values)
    ]


def test_field_values_counts_none_and_nan_as_unparsed_and_skips_missing_keys() -> None:
    values, unparsed = m.field_values(scores({"c": 1.0}, {"c": None}, {"c": UNPARSED}, {"other": 1.0}, {"c": 0.0}), "c")
    assert values.tolist() == [1.0, 0.0] and unparsed == 2


def test_summarise_reports_parsed_estimate_unparsed_and_strict() -> None:
    out = m.summarise("accuracy", [1.0, 1.0, 0.0], 2, unparsed_as=0.0)
    parsed, strict = proportion_estimate([1, 1, 0]), proportion_estimate([1, 1, 0, 0, 0])
    assert out["accuracy"] == pytest.approx(2 / 3) and out["accuracy_n"] == 3 and out["accuracy_unparsed"] == 2
    assert (out["accuracy_ci_low"], out["accuracy_ci_high"]) == (parsed.ci_low, parsed.ci_high)
    assert out["accuracy_strict"] == pytest.approx(2 / 5) and out["accuracy_strict_n"] == 5
    assert (out["accuracy_strict_ci_low"], out["accuracy_strict_ci_high"]) == (strict.ci_low, strict.ci_high)
    # an error rate counts a non-answer as an error
    assert m.summarise("error", [0.0, 1.0], 2, unparsed_as=1.0)["error_strict"] == pytest.approx(3 / 4)
    assert "accuracy_strict" not in m.summarise("accuracy", [1.0], 1)  # no strict unless declared


def test_rate_of_epoch_fractions_is_their_mean_not_a_rounding() -> None:
    estimate = m.rate_estimate([0.5, 0.5, 1.0, 0.0])
    assert estimate.value == pytest.approx(0.5) and estimate.n == 4
    assert m.rate_estimate([1.0, 0.0]).value == 0.5


def test_rate_and_grouped_metrics() -> None:
    data = scores(
        {"c": 1.0},
        {"c": UNPARSED},
        {"c": 0.0},
        meta=[{"g": "x"}, {"g": "x"}, {"g": "y"}],
    )
    out = m.rate("c", "accuracy", unparsed_as=0.0)(data)
    assert out["accuracy"] == 0.5 and out["accuracy_unparsed"] == 1 and out["accuracy_strict"] == pytest.approx(1 / 3)
    grouped = m.grouped("c", "g", "accuracy", unparsed_as=0.0)(data)
    assert grouped["accuracy[g=x]"] == 1.0 and grouped["accuracy[g=x]_unparsed"] == 1
    assert grouped["accuracy[g=x]_strict"] == 0.5 and grouped["accuracy[g=y]_strict_n"] == 1


def test_mark_unparsed_rewrites_none_only() -> None:
    marked = mark_unparsed(Score(value={"a": None, "b": 1.0, "s": "x"}))
    assert math.isnan(marked.value["a"]) and marked.value["b"] == 1.0 and marked.value["s"] == "x"  # type: ignore[index]


def test_results_fold_the_strict_variant_into_its_metric_row() -> None:
    flat = m.summarise("accuracy", [1.0, 0.0], 2, unparsed_as=0.0)
    folded = fold_metrics(flat)
    assert list(folded) == ["accuracy"]
    entry = folded["accuracy"]
    assert entry["value"] == 0.5 and entry["unparsed"] == 2 and entry["strict"] == 0.25 and entry["strict_n"] == 4
    assert entry["strict_ci_low"] == flat["accuracy_strict_ci_low"]


def test_every_trustmh_scorer_marks_unparsed_for_the_reducers() -> None:
    """A scorer declared with inspect's plain @scorer would store None, which reducers turn into 0."""
    from pathlib import Path

    import trustmh

    root = Path(trustmh.__file__).parent
    plain = [
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if "@scorer(" in path.read_text(encoding="utf-8")
        # robust_scorer only passes on the score of the base task's trustmh_scorer
        and path.relative_to(root).as_posix() != "pillars/robustness/tasks.py"
    ]
    assert plain == [], f"declare these scorers with trustmh_scorer: {plain}"
