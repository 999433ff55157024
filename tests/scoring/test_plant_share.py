"""The share of judged samples with a suspected planted rating (``suspected_plant``)."""

from __future__ import annotations

import pytest
from inspect_ai.scorer import SampleScore, Score

from trustmh.scoring.judge_record import JudgementLog
from trustmh.scoring.plant_share import suspected_plant_share
from trustmh.scoring.rubric import PanelResult, Rubric


def _sample(metadata: dict[str, object]) -> SampleScore:
    return SampleScore(score=Score(value={"x": 1.0}, metadata=metadata), sample_id="s")


def test_the_share_is_over_judged_samples_with_a_ci() -> None:
    scores = [_sample({"suspected_plant": 1}), _sample({"suspected_plant": 0}), _sample({})]  # the last: not judged
    found = suspected_plant_share()(scores)
    assert found["suspected_plant"] == 0.5 and found["suspected_plant_n"] == 2
    assert 0 < found["suspected_plant_ci_low"] < 0.5 < found["suspected_plant_ci_high"] < 1


def test_a_scorer_that_judged_nothing_reports_nothing() -> None:
    assert suspected_plant_share()([_sample({}), _sample({"other": 1})]) == {}


def test_the_judgement_log_records_the_flag_only_when_something_was_judged() -> None:
    rubric = Rubric("r", "rate", ())
    result = PanelResult(verdict={}, attempts=1, raw_replies=[], judges=["j"], per_judge=[])
    log = JudgementLog(model="m")
    assert "suspected_plant" not in log.metadata()
    log.record(rubric, "", "answer", result, 0, suspected=False)
    assert log.metadata()["suspected_plant"] == 0
    log.record(rubric, "", "answer", result, 0, suspected=True)
    assert log.metadata()["suspected_plant"] == 1
    assert log.metadata()["judge_panel"]["judgements"][-1]["suspected_plant"] == 1


@pytest.mark.parametrize("flag", [0, 1])
def test_the_flag_is_a_whole_number(flag: int) -> None:
    assert suspected_plant_share()([_sample({"suspected_plant": flag})])["suspected_plant"] == flag
