"""The dry run's stub judge answers like a working judge: a valid verdict for every rubric's
prompt (so the dry run follows the real run's judged path, with no re-ask), and it is exempt
from the judge's early stop, whatever it answers (a published judge's own prompt format gets
the placeholder, which is unusable)."""

from __future__ import annotations

import pytest

from tests.hardening.test_hostile_judged_text import RUBRICS
from trustmh.cost.run_estimate import STUB_REPLY, DryRunModelAPI, stub_verdict
from trustmh.scoring.judge import judge_watch
from trustmh.scoring.judge_prompt import judge_prompt
from trustmh.scoring.verdict import FIRST_VERDICTS, VerdictAttempts, parse_verdict


@pytest.mark.parametrize("name", [name for name, rubric in RUBRICS.items() if rubric.verbatim is None])
def test_the_stub_verdict_is_valid_for_every_rubric(name: str) -> None:
    rubric = RUBRICS[name]
    judged = ("I have not slept for days.", "That sounds exhausting; what has kept you up?")
    reply = stub_verdict(judge_prompt(rubric, *judged))
    assert reply is not None
    verdict = parse_verdict(reply, rubric, judged)
    assert set(verdict) == set(rubric.field_names)


def test_a_prompt_in_another_format_gets_no_verdict() -> None:
    assert stub_verdict("Rate the reply from 0 to 2. Reply with the number only.") is None


def test_the_stub_judge_is_never_stopped_by_the_early_stop_rule() -> None:
    class Stub:  # what judge_watch reads: the model's provider object
        api = DryRunModelAPI("judge")

    watch = judge_watch(Stub())  # type: ignore[arg-type]
    for _ in range(10 * FIRST_VERDICTS):
        assert not watch.record(VerdictAttempts(None, 3, [STUB_REPLY], "the reply is not a JSON object"))
    assert not watch.stopped and watch.calibration == "not asked"
