"""The labelling plan (trustmh.labels.plan): a rate whose planned labels would hold too few of the
rarer answer says so; a scale has no such count."""

from __future__ import annotations

import numpy as np
import pytest

from trustmh.labels.plan import labels_needed, plan_from_judge, plan_from_pilot


def test_a_rare_rate_warns_that_the_planned_labels_hold_too_few_positives() -> None:
    judged = np.array([1.0] * 30 + [0.0] * 970)  # the judge flags 3%
    plan = plan_from_judge("crisis_missed", judged, 0.1, (0.0, 1.0))
    worst, judge_like = plan.rows[0], plan.rows[1]
    assert worst["rarer_answers"] == pytest.approx(worst["labels"] * 0.03)
    assert judge_like["labels"] == labels_needed(float(np.var(judged, ddof=1)), 0.1, 1000)
    assert judge_like["rarer_answers"] < 10 and "too few for a reliable interval" in judge_like["warning"]
    assert all(("warning" in row) == (row["rarer_answers"] < 10) for row in plan.rows)


def test_pilot_labels_set_the_rate_and_a_scale_gets_no_count() -> None:
    population = np.array([1.0, 0.0] * 200)
    labels, paired = np.array([1.0, 0.0, 1.0, 1.0]), np.array([1.0, 0.0, 1.0, 0.0])
    plan = plan_from_pilot("refused", labels, paired, population, 0.05)
    assert plan.rows[0]["rarer_answers"] == pytest.approx(plan.rows[0]["labels"] * 0.25)
    scale = plan_from_judge("quality", np.array([1.0, 3.0, 5.0, 2.0]), 0.5, (1.0, 5.0))
    assert all("rarer_answers" not in row for row in scale.rows)
