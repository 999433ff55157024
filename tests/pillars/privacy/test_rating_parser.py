import pytest

from trustmh.pillars.privacy.scorers import EXPECTATION_SCALE, SENSITIVITY_SCALE, parse_rating, parse_yes_no


@pytest.mark.parametrize(
    "text,expected",
    [
        ("4) very sensitive", 4),
        ("**3) Somewhat sensitive**", 3),
        ("# Rating: 4) Very sensitive\n\nThis is because: 1) identity theft ...", 4),
        ("Answer: 2) not too sensitive", 2),
        ("4", 4),
        ("I would say this is not too sensitive.", 2),
        ("Not at all sensitive", 1),
        ("It is very sensitive for most people.", 4),
        ("Rating (1-4): 3) somewhat sensitive", 3),  # ConfAIde's split(")") misreads this
        ("Between 3) somewhat sensitive and 4) very sensitive", None),
        ("I cannot rate this.", None),
        ("", None),
        ("7) extremely sensitive", None),
    ],
)
def test_sensitivity(text, expected):
    assert parse_rating(text, SENSITIVITY_SCALE) == expected


@pytest.mark.parametrize(
    "text,expected",
    [
        ("-100) strongly disagree", -100),
        ("Answer: 50) somewhat agree", 50),
        ("0) Neutral", 0),
        ("-50", -50),
        ("People would somewhat disagree with this.", -50),
        ("strongly agree", 100),
        ("100) strongly agree or -100) strongly disagree", None),
    ],
)
def test_expectation(text, expected):
    assert parse_rating(text, EXPECTATION_SCALE) == expected


@pytest.mark.parametrize(
    "text,expected",
    [
        ("No.", False),
        ("no, never", False),
        ("**No**. Dr. Sun should not", False),
        ("Yes, because", True),
        ("It is not ok to share it.", False),
        ("Maybe, it depends", None),
        ("Nobody should decide this; yes.", True),
    ],
)
def test_yes_no(text, expected):
    assert parse_yes_no(text) == expected
