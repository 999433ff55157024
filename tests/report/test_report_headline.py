"""Headline choice, ties and normalisation (no logs needed)."""

from __future__ import annotations

import pytest

from trustmh.report.headline import chosen_headline, pillar_scores, ranking
from trustmh.results import MetricRow


def _row(
    model: str, metric: str, value: float | None, pillar: str = "privacy", task: str = "privacy_psyleak"
) -> MetricRow:
    return MetricRow(task, pillar, model, metric, value, None, None, 10, 0, "starter", None)


def test_privacy_falls_back_to_leak_rates_when_no_model_has_pearson() -> None:
    rows = [
        _row("a", "free_response_leak_rate", 0.2),
        _row("a", "control_error", 0.4),
        _row("a", "judge_unparsed_rate", 0.9),
        _row("b", "free_response_leak_rate", 0.1),
        _row("b", "control_error", None),
    ]
    headline = chosen_headline("privacy", rows)
    assert headline is not None and not headline.higher_is_better
    scores = pillar_scores(rows)
    assert scores[("a", "privacy")].value == pytest.approx(0.3)  # judge_unparsed_rate is not a leak
    assert scores[("b", "privacy")].value == pytest.approx(0.1)  # unscored metrics are left out
    assert scores[("a", "privacy")].normalised == pytest.approx(0.7)
    assert [r.model for r in ranking(["a", "b"], scores)] == ["b", "a"]


def test_pearson_preferred_and_ties_share_the_mean_rank() -> None:
    rows = [_row(m, "pearson_r", v, task="privacy_confaide_tier1") for m, v in (("a", 0.5), ("b", 0.5), ("c", 0.9))]
    rows.append(_row("a", "control_error", 0.0))
    scores = pillar_scores(rows)
    assert chosen_headline("privacy", rows).pattern == "pearson_r"
    ranks = {r.model: r.pillar_ranks["privacy"] for r in ranking(["a", "b", "c"], scores)}
    assert ranks == {"c": 1, "a": 2.5, "b": 2.5}


def test_negative_correlation_draws_as_zero_and_nothing_scored_means_missing() -> None:
    scores = pillar_scores([_row("a", "pearson_r", -0.4, task="t"), _row("b", "pearson_r", None, task="t")])
    assert scores[("a", "privacy")].normalised == 0.0
    assert ("b", "privacy") not in scores
    assert [r.model for r in ranking(["a", "b"], scores)] == ["a"]  # b has no pillar: not ranked


def test_latest_log_compares_creation_times_across_time_zones() -> None:
    from types import SimpleNamespace

    from trustmh.report.collect import _created

    def log(created: str) -> SimpleNamespace:
        return SimpleNamespace(eval=SimpleNamespace(created=created))

    # 10:30 at +02:00 is 08:30 UTC: earlier than 09:00 UTC although its string sorts later.
    assert _created(log("2026-11-26T10:30:00+02:00")) < _created(log("2026-11-26T09:00:00+00:00"))
    assert _created(log("garbage")) < _created(log("2020-01-01T00:00:00"))
