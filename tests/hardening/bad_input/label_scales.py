"""Human labels the judge's own fields cannot take: `trustmh judge-check` holds them to the scale the
judge's rubric declares (recorded in the log, no `--scale` needed) and refuses a text label on a
field the judge rates with numbers; `--qualify` holds a qualification set's labels to its rubric.
Each would move an agreement or a PPI-corrected mean."""

from __future__ import annotations

import json

from tests.hardening.bad_input.align_report import JUDGE_LONG, LONG, judge_check
from tests.hardening.bad_input.judge_check_turns import HEADER, A, on_log
from tests.hardening.hardening_cli import TEST_KEY, Case, _lines


def _qualification_set(empathy: object) -> str:
    items = [{"id": f"i{n}", "context": f"c{n}", "response": f"r{n}", "labels": {"Empathy": 3}} for n in range(3)]
    items[1]["labels"] = {"Empathy": empathy}
    return "".join(json.dumps(item) + "\n" for item in items)


QUALIFY = ["judge-check", "--qualify", "--judge", "openai/j", "--base-url", "http://127.0.0.1:9/v1"]

CASES = [
    on_log(
        "judgecheck-per-turn-off-rubric-scale",
        _lines(HEADER, f"{A},5,dcs,ann,1", f"{A},6,dcs,ann,7"),
        ["human.csv:line 3, column 'score'", "field 'dcs' is declared 0-2 (the judge's rubric), found 7"],
    ),
    on_log(
        "judgecheck-per-turn-label-on-rubric-scale",
        _lines(HEADER, f"{A},5,dcs,ann,validates", f"{A},6,dcs,ann,challenges"),
        ["human.csv:line 2, column 'score'", "field 'dcs' is declared 0-2 (the judge's rubric), found 'validates'"],
    ),
    judge_check(
        "judgecheck-label-on-a-numeric-judge-field",
        {
            "human.csv": LONG.replace(",4", ",good").replace(",2", ",poor").replace(",5", ",great"),
            "judge.csv": JUDGE_LONG,
        },
        [
            "human.csv:line 2, column 'score'",
            "field 'quality' is rated with numbers by the judge, found the label 'good'",
        ],
        "--judge-ratings",
        "judge.csv",
    ),
    Case(
        "qualify-label-off-rubric-scale",
        [*QUALIFY, "--qualification-set", "own.jsonl", "--json", "out.json"],
        {"own.jsonl": _qualification_set(7)},
        ["own.jsonl:line 2, label 'Empathy'", "field 'Empathy' is declared 1-5 (the judge's rubric), found 7"],
        ["out.json"],
        env={"OPENAI_API_KEY": TEST_KEY},
    ),
]
