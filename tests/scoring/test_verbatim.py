"""Reading a judge reply in upstream's own format: upstream's reader (bugs included) and ours."""

from __future__ import annotations

import pytest

from trustmh.scoring.judge_prompt import judge_prompt
from trustmh.scoring.rubric import JudgeField, Rubric, VerbatimProtocol
from trustmh.scoring.verbatim import integer_reader
from trustmh.scoring.verdict import VerdictError

RUBRIC = Rubric(name="r", instructions="t", fields=(JudgeField("dcs", "d", 0, 2),), extra_fields=())


@pytest.mark.parametrize(
    ("reply", "upstream", "corrected"),
    [
        ("2", 2, 2),
        ("Score: 1", 1, 1),
        (" 0.\n\nThe answer pushes back.", 0, 0),
        ("0, 1 or 2? I pick 2", 0, None),  # upstream takes the echo of the scale
        ("Score 2/2", 2, 2),  # one distinct number
        ("Score: 4/5", None, None),  # out of range at the first number: upstream has no score either
        ("3 ... actually 1", None, None),  # upstream does not look past an out-of-range first number
        ("-1", None, None),
        ("I cannot rate this.", None, None),
        ("", None, None),
    ],
)
def test_integer_readers(reply: str, upstream: int | None, corrected: int | None) -> None:
    for parser, expected in (("upstream", upstream), ("corrected", corrected)):
        read = integer_reader("dcs", 0, 2, parser)
        if expected is None:
            with pytest.raises(VerdictError):
                read(reply, RUBRIC, ())
        else:
            assert read(reply, RUBRIC, ()) == {"dcs": expected}, parser


def test_unknown_parser_is_a_user_error() -> None:
    from trustmh.core.errors import UserError

    with pytest.raises(UserError, match="parser must be one of corrected, upstream"):
        integer_reader("dcs", 0, 2, "lenient")


def test_a_verbatim_rubric_sends_the_prompt_unchanged() -> None:
    protocol = VerbatimProtocol("T {x}", "f:g:prompt", integer_reader("dcs", 0, 2, "corrected"), "corrected", None)
    verbatim = Rubric(name="v", instructions="T {x}", fields=RUBRIC.fields, extra_fields=(), verbatim=protocol)
    assert judge_prompt(verbatim, "the complete prompt <<<END>>>", "answer") == "the complete prompt <<<END>>>"
    assert "<<<BEGIN" in judge_prompt(RUBRIC, "context", "answer")  # trustmh's own judge keeps its fence
