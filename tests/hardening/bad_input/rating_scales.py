"""Human scores off the declared scale, non-finite or of mixed kinds: `trustmh align` (MentalAlign's
wide files, declared 0-5) and `trustmh judge-check` (long files, `--scale FIELD=LOW-HIGH`)
refuse them with one line naming file, row and field (issue 25, item 6)."""

from __future__ import annotations

from tests.hardening.bad_input.align_report import HUMAN, JUDGE_LONG, LONG, align, as_judge, judge_check
from tests.hardening.hardening_cli import Case, _lines


def human_with(value: str) -> str:
    """The two-row human file with its second rating (row 3) replaced by ``value``, as written in the cell."""
    return _lines("ConvID,human_response_gpt4", '1,"{""Guidance"": 4}"', f'2,"{{""Guidance"": {value}}}"')


AT = "human.csv:row 3, column 'human_response_gpt4', attribute 'Guidance'"

ALIGN_CASES = [
    align(
        f"align-human-score-{name}",
        "j=judge.csv",
        {"human.csv": human_with(value), "judge.csv": as_judge(HUMAN)},
        [AT, f"expected a number from 0 to 5, found {shown}"],
    )
    for name, value, shown in [
        ("above-scale", "7", "7"),
        ("below-scale", "-1", "-1"),
        ("nan", "NaN", "NaN"),
        ("infinity", "Infinity", "Infinity"),
        ("quoted-number", '""4""', '"4"'),
        ("boolean", "true", "true"),
    ]
]


def long_with(score: str) -> str:
    return LONG.replace("s2,quality,ann,2", f"s2,quality,ann,{score}")


def scaled(case_id: str, score: str, expected: list[str], *extra: str) -> Case:
    files = {"human.csv": long_with(score), "judge.csv": JUDGE_LONG}
    return judge_check(case_id, files, expected, "--judge-ratings", "judge.csv", *extra)


JUDGE_CHECK_CASES = [
    scaled(
        "judgecheck-human-off-declared-scale",
        "9",
        ["human.csv:line 3, column 'score'", "field 'quality' is declared 1-5 (--scale), found 9"],
        "--scale",
        "quality=1-5",
    ),
    scaled(
        "judgecheck-human-label-on-declared-scale",
        "high",
        ["human.csv:line 3, column 'score'", "field 'quality' is declared 1-5 (--scale), found 'high'"],
        "--scale",
        "quality=1-5",
    ),
    scaled("judgecheck-human-nan", "nan", ["human.csv:line 3, column 'score'", "expected a finite number"]),
    scaled("judgecheck-human-infinity", "-inf", ["human.csv:line 3, column 'score'", "expected a finite number"]),
    scaled("judgecheck-human-mixed-kinds", "high", ["human.csv:line 3, column 'score'", "mixes numbers and labels"]),
    scaled("judgecheck-scale-malformed", "2", ["--scale 'quality=5-1'", "LOW < HIGH"], "--scale", "quality=5-1"),
]

CASES = [*ALIGN_CASES, *JUDGE_CHECK_CASES]
