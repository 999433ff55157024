"""`trustmh align` (human and judge rating files), `trustmh judge-check` and `trustmh report`."""

from __future__ import annotations

from typing import Any

from tests.hardening.bad_input.common import corrupt_sheet, folder, loop
from tests.hardening.hardening_cli import Case, Files, _lines

ALIGN = ["align", "--human", "human.csv", "--json", "out.json"]
HUMAN = _lines("ConvID,human_response_gpt4", '1,"{""Guidance"": 4}"', '2,"{""Guidance"": 3}"')
HUMAN2 = _lines(
    "ConvID,human_response_a,human_response_b",
    '1,"{""Guidance"": 4}","{""Guidance"": 2}"',
    '2,"{""Guidance"": 3}","{""Guidance"": 5}"',
    '3,"{""Guidance"": 1}","{""Guidance"": 4}"',
)


def as_judge(human: str) -> str:
    """The same ratings as a judge's file."""
    return human.replace("human_response", "judge_response")


def align(case_id: str, judge: str, files: Files, expected: list[str], *extra: str, **more: Any) -> Case:
    """``trustmh align --human human.csv --judge JUDGE ...`` that must write no out.json."""
    return Case(case_id, [*ALIGN, "--judge-ratings", judge, *extra], files, expected, ["out.json"], **more)


ALIGN_CASES = [
    align(
        "align-judge-without-equals",
        "judge.csv",
        {"human.csv": HUMAN, "judge.csv": HUMAN},
        ["--judge-ratings", "NAME=VALUE"],
    ),
    align("align-judge-empty-file", "claude=judge.csv", {"human.csv": HUMAN, "judge.csv": ""}, ["judge.csv", "empty"]),
    align(
        "align-judge-no-convid-column",
        "claude=judge.csv",
        {"human.csv": HUMAN, "judge.csv": _lines("Conversation,judge_response_gpt4", "1,4")},
        ["judge.csv:row 1", "missing column 'ConvID'"],
    ),
    align(
        "align-judge-truncated",
        "claude=judge.csv",
        {"human.csv": HUMAN, "judge.csv": 'ConvID,judge_response_gpt4\n1,"{""Guid'},
        ["judge.csv"],
    ),
    align(
        "align-judge-ids-do-not-match",
        "claude=judge.csv",
        {
            "human.csv": HUMAN,
            "judge.csv": _lines("ConvID,judge_response_gpt4", '7,"{""Guidance"": 4}"', '8,"{""Guidance"": 3}"'),
        },
        ["judge.csv:row 2", "ConvID '7' is not in human.csv"],
    ),
    align("align-judge-file-missing", "claude=nowhere.csv", {"human.csv": HUMAN}, ["nowhere.csv"]),
    Case(
        "align-human-corrupt-sheet-xml",
        ["align", "--human", "human.xlsx", "--judge-ratings", "j=judge.csv", "--json", "out.json"],
        {"human.xlsx": corrupt_sheet([["ConvID", "human_response_gpt4"], ["1", "{}"]]), "judge.csv": HUMAN},
        ["human.xlsx"],
        ["out.json"],
    ),
    align("align-human-symlink-loop", "j=judge.csv", {"judge.csv": HUMAN}, ["human.csv"], setup=loop("human.csv")),
    align(
        "align-exclude-unknown-judge",
        "j=judge.csv",
        {"human.csv": HUMAN, "judge.csv": as_judge(HUMAN)},
        ["no judge named 'zz'"],
        "--exclude",
        "zz=k",
    ),
    Case(
        "align-json-is-a-folder",
        ["align", "--human", "human.csv", "--judge-ratings", "j=judge.csv", "--bootstrap", "20", "--json", "outdir"],
        {"human.csv": HUMAN2, "judge.csv": as_judge(HUMAN2)} | folder("outdir"),
        ["outdir: a folder; expected a file path"],
    ),
]

JC = ["judge-check", "--human", "human.csv", "--json", "out.json"]
LONG = _lines("sample_id,field,rater,score", "s1,quality,ann,4", "s2,quality,ann,2", "s3,quality,ann,5")
JUDGE_LONG = LONG.replace("ann", "gpt")


def judge_check(case_id: str, files: Files, expected: list[str], *extra: str, **more: Any) -> Case:
    """``trustmh judge-check --human human.csv --json out.json ...`` that must write no out.json."""
    return Case(case_id, [*JC, *extra], files, expected, ["out.json"], **more)


JUDGE_CHECK_CASES = [
    judge_check(
        "judgecheck-human-no-score-column",
        {"human.csv": _lines("sample_id,field,rater", "s1,quality,ann"), "judge.csv": JUDGE_LONG},
        ["human.csv:line 1", "missing column 'score'"],
        "--judge-ratings",
        "judge.csv",
    ),
    judge_check(
        "judgecheck-human-empty-score",
        {"human.csv": LONG.replace("s2,quality,ann,2", "s2,quality,ann,"), "judge.csv": JUDGE_LONG},
        ["human.csv:line 3, column 'score'", "empty score"],
        "--judge-ratings",
        "judge.csv",
    ),
    judge_check(
        "judgecheck-judge-file-two-raters-unnamed",
        {"human.csv": LONG, "judge.csv": JUDGE_LONG + LONG.split("\n", 1)[1]},
        ["judge.csv: holds raters ann, gpt", "--judge-rater"],
        "--judge-ratings",
        "judge.csv",
    ),
    judge_check(
        "judgecheck-log-not-a-log", {"human.csv": LONG, "run.eval": "garbage"}, ["run.eval"], "--log", "run.eval"
    ),
    judge_check("judgecheck-no-judge-source", {"human.csv": LONG}, ["give exactly one of --log"]),
    judge_check(
        "judgecheck-human-is-a-folder",
        folder("human.csv") | {"judge.csv": JUDGE_LONG},
        ["human.csv"],
        "--judge-ratings",
        "judge.csv",
    ),
    Case(
        "judgecheck-json-is-a-folder",
        [
            "judge-check",
            "--human",
            "human.csv",
            "--judge-ratings",
            "judge.csv",
            "--bootstrap",
            "10",
            "--json",
            "outdir",
        ],
        {"human.csv": LONG, "judge.csv": JUDGE_LONG} | folder("outdir"),
        ["outdir: a folder; expected a file path"],
    ),
]

REPORT_CASES = [
    Case("report-missing-log-dir", ["report", "nowhere", "-o", "r.html"], {}, ["no such log directory"], ["r.html"]),
    Case(
        "report-align-not-json",
        ["report", "logs", "-o", "r.html", "--align", "a.json"],
        {"logs/keep.txt": "x", "a.json": "{"},
        ["a.json"],
        ["r.html"],
    ),
]

REPORT_CASES.append(
    Case(
        "report-judge-validation-wrong-format",
        ["report", "logs", "-o", "r.html", "--judge-validation", "v.json"],
        {"logs/keep.txt": "x", "v.json": '{"rows": []}'},
        ["v.json", "trustmh judge-check --json"],
        ["r.html"],
    )
)

CASES = [*ALIGN_CASES, *JUDGE_CHECK_CASES, *REPORT_CASES]
