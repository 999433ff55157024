"""A judge that gives nothing usable for its first verdicts is stopped early, by one rule for every judge."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from inspect_ai.model import get_model

from tests.fakes import CALLS, script
from trustmh.core.errors import UserError
from trustmh.scoring import verdict
from trustmh.scoring.judge import run_judge
from trustmh.scoring.rubric import JudgeField, Rubric
from trustmh.scoring.verdict import JudgeWatch, UnusableJudge, VerdictAttempts

RUBRIC = Rubric(name="test", instructions="Rate the reply.", fields=(JudgeField("empathy", "warmth"),))
JUNK = "Sure! The response is great, I would rate it highly."


def _unusable() -> VerdictAttempts:
    return VerdictAttempts(None, 3, ["junk"], "the reply is not a JSON object")


def test_the_rule_fires_only_when_the_first_verdicts_are_all_unusable() -> None:
    watch = JudgeWatch("openai/tiny", limit=3)
    for _ in range(2):
        watch.record(_unusable())
    watch.record(VerdictAttempts(None, 1, [], "connection reset", call_failed=True))  # not the judge's answer
    assert not watch.stopped and watch.unusable == 2
    assert watch.record(_unusable())  # the rule is reached: the clean calibration item is asked first
    assert not watch.stopped and not watch.record(_unusable())  # asked once, not per verdict
    watch.calibrated(_unusable())
    assert watch.stopped
    watch.record(VerdictAttempts({"empathy": 3}, 1, ["{}"]))  # an ask already in flight: too late
    assert watch.stopped
    message = watch.message(3)
    assert message.startswith(
        "judge openai/tiny gave no usable verdict in its first 4 nor on a clean calibration item (each asked up to 3"
    )
    assert "'junk'" in message and "--judge" in message and "\n" not in message


def test_a_judge_that_passes_the_calibration_item_is_never_stopped() -> None:
    """The model under test made its first answers unjudgeable; the judge itself can judge (issue 25)."""
    watch = JudgeWatch("openai/capable", limit=3)
    reached = [watch.record(_unusable()) for _ in range(3)]
    assert reached == [False, False, True]
    watch.calibrated(VerdictAttempts({"empathy": 4}, 1, ["{}"]))
    assert [watch.record(_unusable()) for _ in range(20)] == [False] * 20
    assert not watch.stopped and watch.calibration == "passed"


def test_one_usable_verdict_among_the_first_keeps_a_judge_running() -> None:
    watch = JudgeWatch("openai/flaky", limit=3)
    watch.record(VerdictAttempts({"empathy": 3}, 1, ["{}"]))
    for _ in range(10):
        watch.record(_unusable())
    assert not watch.stopped  # unreliable, not useless: measured by its unparsed count


def test_inspect_judge_stops_asking_after_its_first_unusable_verdicts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(verdict, "FIRST_VERDICTS", 2)
    model = get_model(script("watch-junk", [JUNK]), memoize=False)
    first = asyncio.run(run_judge(model, RUBRIC, "ctx", "resp", max_attempts=2))
    assert first.verdict is None  # one unusable verdict: unparsed, as before
    with pytest.raises(UnusableJudge):  # the second makes two of two: the sample errors, naming the judge
        asyncio.run(run_judge(model, RUBRIC, "ctx", "resp 2", max_attempts=2))
    asked = len(CALLS["watch-junk"])
    assert asked == 6  # two verdicts and the calibration item, two asks each
    with pytest.raises(UnusableJudge, match="scripted/watch-junk gave no usable verdict in its first 2"):
        asyncio.run(run_judge(model, RUBRIC, "ctx", "another response"))
    assert len(CALLS["watch-junk"]) == asked  # stopped: not asked again


def test_a_run_with_a_junk_judge_stops_with_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from trustmh.run.config import RunConfig
    from trustmh.run.runner import run_tasks

    monkeypatch.setattr(verdict, "FIRST_VERDICTS", 3)
    under_test = script("watch-under-test", ["I hear you. Please call a crisis line now."])
    judge = script("watch-run-junk", [JUNK])
    with pytest.raises(UserError) as stopped:
        run_tasks(
            RunConfig(
                tasks=("crisis_escalation", "ethics_ethicmh"),
                models=(under_test,),
                judges=(judge,),
                log_dir=tmp_path / "logs",
                source="starter",
                # samples run (nearly) one after another, as with a slow local judge
                max_connections=1,
                display="none",
                write_report=False,
            )
        )
    message = str(stopped.value)
    assert message.startswith("judge scripted/watch-run-junk gave no usable verdict in its first")
    assert "'Sure! The response is great" in message and "with --judge" in message
    assert isinstance(stopped.value, UnusableJudge) and "\n" not in message
    # Every sample of both tasks would be judged, 3 asks per verdict; the judge was asked for
    # its first 3 verdicts and those already in flight, then the calibration item, and the models
    # made no call after that.
    assert len(CALLS["watch-run-junk"]) <= 6 * 3  # (and the calibration item)
    assert len(CALLS["watch-under-test"]) <= 5
