"""The label parser on the answers small and large models give."""

from __future__ import annotations

import pytest

from trustmh.pillars.crisis.scorers import CRISIS_ALIASES, CSSRS_ALIASES
from trustmh.scoring.labels import parse_label


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("suicidal_ideation", "suicidal_ideation"),
        ("**Self-harm**", "self-harm"),
        ("self harm. The user describes hurting themselves.", "self-harm"),
        ("Category: anxiety_crisis", "anxiety_crisis"),
        ("The category is substance abuse or withdrawal", "substance_abuse_or_withdrawal"),
        ("no_crisis", "no_crisis"),
        ("No crisis - everyday worries", "no_crisis"),
        ("risk-taking behaviours", "risk_taking_behaviours"),
        ("Violent thoughts", "violent_thoughts"),
        # explicit statement wins over other mentions
        ("Not self-harm. Category: suicidal_ideation", "suicidal_ideation"),
        # leading label wins over labels named in the explanation
        ("anxiety_crisis (not suicidal_ideation)", "anxiety_crisis"),
        # ambiguous or missing: unparsed
        ("It could be self-harm or suicidal ideation.", None),
        ("I am not sure.", None),
        ("", None),
        (None, None),
    ],
)
def test_crisis_labels(text: str | None, expected: str | None) -> None:
    assert parse_label(text, CRISIS_ALIASES) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Ideation", "Ideation"),
        ("Level: behaviour", "Behavior"),
        ("attempt", "Attempt"),
        ("1. Supportive", "Supportive"),
        ("Indicator or Ideation", None),
    ],
)
def test_cssrs_levels(text: str, expected: str | None) -> None:
    assert parse_label(text, CSSRS_ALIASES) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Level: 3", "Ideation"),
        ("5", "Attempt"),
        ("**4**", "Behavior"),
        ("Level: 10", None),
        ("2.5", None),
        ("3 Ideation", "Ideation"),
        ("Level 1: Supportive", "Supportive"),
        (None, None),
    ],
)
def test_cssrs_level_numbers(text: str | None, expected: str | None) -> None:
    from trustmh.pillars.crisis.scorers import parse_cssrs_level

    assert parse_cssrs_level(text) == expected
