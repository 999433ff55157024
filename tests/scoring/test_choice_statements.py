"""Statements the shared parse_choice reads since the Ethics pillar needed them (answers of the embedded model)."""

import pytest

from trustmh.scoring.choice import parse_choice


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The correct answer is: C. Ask the client for permission.", "C"),
        ("The most ethical option to choose from is D.", "D"),
        ("The best option here is (B) because it is fair.", "B"),
        ("The most fitting option for me is a hard call.", None),  # lower-case article, not a letter
        ("Option A is wrong; the answer is B.", None),  # two different letters stated
        ("The answer is (c).", "C"),  # unchanged behaviour
        ("**B) Pituitary adenoma**", "B"),
    ],
)
def test_statements(text, expected):
    assert parse_choice(text, "ABCD") == expected
