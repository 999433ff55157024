"""`trustmh align` (human and judge rating files) and `trustmh report`."""

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
    return Case(case_id, [*ALIGN, "--judge", judge, *extra], files, expected, ["out.json"], **more)


ALIGN_CASES = [
    align(
        "align-judge-without-equals", "judge.csv", {"human.csv": HUMAN, "judge.csv": HUMAN}, ["--judge", "NAME=VALUE"]
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
        ["align", "--human", "human.xlsx", "--judge", "j=judge.csv", "--json", "out.json"],
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
        ["align", "--human", "human.csv", "--judge", "j=judge.csv", "--bootstrap", "20", "--json", "outdir"],
        {"human.csv": HUMAN2, "judge.csv": as_judge(HUMAN2)} | folder("outdir"),
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

CASES = [*ALIGN_CASES, *REPORT_CASES]
