"""Malformed files at the shared readers (issue 35, item 11): deep JSON nesting, a NUL in an id,
short CSV rows, negative turn numbers, a column named twice, an unterminated quote, a cell over
the 200,000-character limit, in `trustmh audit` exports, `judge-check` ratings and `score`
replay files; and `-T parser=` on a task that takes no parser. Before, deep nesting and a NUL in
an audit id were internal errors (exit 1), and short rows, negative turns, a column named twice
and an unterminated quote were read silently (a short row's missing cell as empty, the second
column of a name winning, the rest of the file swallowed into one cell)."""

from __future__ import annotations

import json

from tests.hardening.bad_input.align_report import JUDGE_LONG, LONG
from tests.hardening.bad_input.score import replay, score
from tests.hardening.hardening_cli import Case, Files, _lines

DEEP = "[" * 100_000 + "]" * 100_000  # Python's JSON parser recursed until RecursionError
MESSAGES = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
CSV_HEADER = "conversation_id,turn,role,content"


def audit(case_id: str, name: str, text: str, expected: list[str]) -> Case:
    """``trustmh audit FILE`` (detectors only: nothing is sent) that must leave no log folder."""
    return Case(case_id, ["audit", name, "--log-dir", "logs", "--no-report"], {name: text}, expected, ["logs"])


def jsonl(**record: object) -> str:
    return json.dumps(record) + "\n"


AUDIT_CASES = [
    audit(
        "audit-jsonl-deep-nesting",
        "t.jsonl",
        '{"id": "a", "messages": ' + DEEP + "}\n",
        ["t.jsonl:line 1", "nested too deeply to read"],
    ),
    audit(
        "audit-jsonl-nul-in-id",
        "t.jsonl",
        jsonl(id="a\x00b", messages=MESSAGES),
        ["t.jsonl:line 1, field 'id'", "without control characters", "'\\x00'"],
    ),
    audit(
        "audit-csv-nul-in-id",
        "t.csv",
        _lines(CSV_HEADER, "c\x001,1,user,hi", "c\x001,2,assistant,hello"),
        ["t.csv:line 2, column 'conversation_id'", "without control characters"],
    ),
    audit(
        "audit-csv-short-row",
        "t.csv",
        _lines(CSV_HEADER, "c1,1,user,hi", "c1,2,assistant"),
        ["t.csv:line 3", "fewer fields than the 4 columns of the header", "a short row"],
    ),
    audit(
        "audit-csv-negative-turn",
        "t.csv",
        _lines(CSV_HEADER, "c1,-2,user,hi", "c1,-1,assistant,hello"),
        ["t.csv:line 2, column 'turn'", "expected a turn number of 0 or more, found -2"],
    ),
    audit(
        "audit-csv-duplicated-header",
        "t.csv",
        _lines(CSV_HEADER + ",content", "c1,1,user,hi,x", "c1,2,assistant,hello,y"),
        ["t.csv:line 1", "column 'content' appears twice in the header"],
    ),
    audit(
        "audit-csv-unterminated-quote",
        "t.csv",
        _lines(CSV_HEADER, 'c1,1,user,"hi', "c1,2,assistant,hello"),
        ["t.csv:line 2", "a quoted cell is never closed"],
    ),
    audit(
        "audit-csv-message-over-the-limit",
        "t.csv",
        _lines(CSV_HEADER, "c1,1,user,hi", "c1,2,assistant," + "x" * 200_001),
        ["t.csv:line 3, column 'content'", "expected at most 200000 characters, found 200001"],
    ),
]


def ratings(case_id: str, human: Files, expected: list[str]) -> Case:
    """``trustmh judge-check --human HUMAN --judge-ratings judge.csv`` that must write no out.json."""
    (name,) = human
    args = ["judge-check", "--human", name, "--judge-ratings", "judge.csv", "--json", "out.json"]
    return Case(case_id, args, {**human, "judge.csv": JUDGE_LONG}, expected, ["out.json"])


TURN_HEADER = "sample_id,field,rater,score,turn"
JUDGE_CHECK_CASES = [
    ratings(
        "judgecheck-short-row",  # the missing turn was read as "no turn", then blamed on the field
        {"human.csv": _lines(TURN_HEADER, "s1,quality,ann,4,1", "s2,quality,ann,2", "s3,quality,ann,5,1")},
        ["human.csv:line 3", "fewer fields than the 5 columns of the header"],
    ),
    ratings(
        "judgecheck-duplicated-header",  # the second score column won, silently
        {"human.csv": _lines("sample_id,field,rater,score,score", "s1,quality,ann,4,1", "s2,quality,ann,2,1")},
        ["human.csv:line 1", "column 'score' appears twice in the header"],
    ),
    ratings(
        "judgecheck-unterminated-quote",
        {"human.csv": LONG.replace("s2,quality,ann,2", 's2,quality,"ann,2')},
        ["human.csv:line 3", "a quoted cell is never closed"],
    ),
    ratings(
        "judgecheck-negative-turn",
        {"human.csv": _lines(TURN_HEADER, "s1,quality,ann,4,-1", "s2,quality,ann,2,1")},
        ["human.csv:line 2, column 'turn'", "whole turn number", "'-1'"],
    ),
    ratings(
        "judgecheck-nul-in-id",  # read as a sample of its own, and the human's rating of s1 lost
        {"human.csv": LONG.replace("s1,quality", "s\x001,quality")},
        ["human.csv:line 2, column 'sample_id'", "without control characters"],
    ),
    ratings(
        "judgecheck-jsonl-deep-nesting",
        {"human.jsonl": '{"sample_id": "s1", "field": "quality", "rater": "ann", "score": ' + DEEP + "}\n"},
        ["human.jsonl:line 1", "nested too deeply to read"],
    ),
    ratings(
        "judgecheck-cell-over-the-limit",
        {"human.csv": _lines("sample_id,field,rater,score,note", "s1,quality,ann,4," + "x" * 200_001)},
        ["human.csv:line 2, column 'note'", "expected at most 200000 characters"],
    ),
]

SCORE_CASES = [
    score(
        "score-replay-deep-nesting",
        replay(raw='{"id": "0-control", "output": ' + DEEP + "}\n"),
        ["r.jsonl:line 1", "nested too deeply to read"],
    ),  # fmt: skip
    score(
        "score-replay-nul-in-id",
        replay({"id": "0-control\x00", "output": "No."}),
        ["r.jsonl:line 1, field 'id'", "without control characters"],
    ),
]

TASK_ARG_CASES = [  # already one line before; kept so they stay so
    Case(
        "run-task-arg-parser-on-a-task-without-parsers",
        ["run", "crisis_resources_locale", "-T", "parser=upstream", "--log-dir", "logs", "--no-report"],
        {},
        ["-T parser: no selected task takes this argument", "they take: max_tokens"],
        ["logs"],
    ),
    Case(
        "run-task-arg-parser-empty",
        ["run", "privacy_psyleak", "-T", "parser=", "--log-dir", "logs", "--no-report"],
        {},
        ["-T parser must be one of corrected, upstream, not ''"],
        ["logs"],
    ),
]

CASES = [*AUDIT_CASES, *JUDGE_CHECK_CASES, *SCORE_CASES, *TASK_ARG_CASES]
