"""`trustmh judge-check` with per-turn human ratings (the optional ``turn`` column): a turn that is
not a whole number, that the conversation does not have or whose field was not judged there, a turn
on a field that is not judged per turn, and a missing turn on one that only is."""

from __future__ import annotations

from pathlib import Path

from tests.hardening.bad_input.align_report import judge_check
from tests.hardening.hardening_cli import Case, _lines
from tests.judgecheck.conversation_run import copy_psychosis_log

A = "starter_signal_explicit"  # a case of the scripted psychosis run: 8 turns, DCS judged at turns 4-8
HEADER = "sample_id,turn,field,rater,score"
JUDGE_TURNS = _lines(HEADER, "c1,1,names_risk,gpt,1", "c1,2,names_risk,gpt,0", "c1,,quality,gpt,4")


def _psychosis_log(root: Path) -> None:
    copy_psychosis_log(root / "run.eval")


def on_log(case_id: str, human: str, expected: list[str]) -> Case:
    return judge_check(case_id, {"human.csv": human}, expected, "--log", "run.eval", setup=_psychosis_log)


CASES = [
    judge_check(
        "judgecheck-mixed-numbers-and-labels",  # issue 25: the numbers were read as labels, silently
        {"human.csv": _lines(HEADER, "c1,,quality,ann,4", "c1,,quality,bob,good"), "judge.csv": JUDGE_TURNS},
        ["human.csv:line 3, column 'score'", "field 'quality' mixes numbers and labels", "'good' here"],
        "--judge-ratings",
        "judge.csv",
    ),
    judge_check(
        "judgecheck-turn-not-a-whole-number",
        {"human.csv": _lines(HEADER, "c1,1,names_risk,ann,1", "c1,2.5,names_risk,ann,0"), "judge.csv": JUDGE_TURNS},
        ["human.csv:line 3, column 'turn'", "whole turn number", "'2.5'"],
        "--judge-ratings",
        "judge.csv",
    ),
    judge_check(
        "judgecheck-turn-on-a-whole-sample-field",
        {"human.csv": _lines(HEADER, "c1,2,quality,ann,4"), "judge.csv": JUDGE_TURNS},
        ["human.csv:line 2, column 'turn'", "'quality' is not judged per turn", "leave the turn empty"],
        "--judge-ratings",
        "judge.csv",
    ),
    judge_check(
        "judgecheck-turn-missing-on-a-per-turn-field",
        {"human.csv": _lines(HEADER, "c1,,names_risk,ann,1"), "judge.csv": JUDGE_TURNS},
        ["human.csv:line 2, column 'turn'", "'names_risk' is judged per turn", "expected the turn number"],
        "--judge-ratings",
        "judge.csv",
    ),
    judge_check(
        "judgecheck-turn-given-on-some-rows-only",
        {"human.csv": _lines(HEADER, "c1,1,names_risk,ann,1", "c1,,names_risk,ann,0"), "judge.csv": JUDGE_TURNS},
        ["human.csv:line 3, column 'turn'", "rated per turn elsewhere (", "human.csv:line 2)"],
        "--judge-ratings",
        "judge.csv",
    ),
    on_log(
        "judgecheck-turn-the-conversation-does-not-have",
        _lines(HEADER, f"{A},4,dcs,ann,0", f"{A},13,dcs,ann,1"),
        ["human.csv:line 3, column 'turn'", f"sample '{A}' has 8 turns; found turn 13"],
    ),
    on_log(
        "judgecheck-turn-where-the-field-was-not-judged",
        _lines(HEADER, f"{A},2,dcs,ann,0"),
        ["human.csv:line 2, column 'turn'", "no 'dcs' verdict at turn 2 (judged at 4, 5, 6, 7, 8)"],
    ),
]
