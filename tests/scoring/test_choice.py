"""The shared multiple-choice parser on the ways real models state (or dodge) an answer."""

from __future__ import annotations

import pytest

from trustmh.scoring.choice import extract_json_objects, json_value, letters_for, parse_choice

OPTIONS = {
    "A": "Exogenous corticosteroid administration",
    "B": "Pituitary adenoma",
    "C": "Adrenal carcinoma",
    "D": "Major depressive disorder",
    "E": "Depression",
}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # bare and bracketed letters
        ("B", "B"),
        ("(C)", "C"),
        ("  D)  ", "D"),
        ("B.", "B"),
        ("B: Pituitary adenoma", "B"),
        ("B - Pituitary adenoma", "B"),
        ("B\nBecause the ACTH is high.", "B"),
        # explicit statements
        ("The answer is (C)", "C"),
        ("The answer is (C).", "C"),
        ("The correct answer is: C) Adrenal carcinoma", "C"),
        ("Final answer: B", "B"),
        ("Answer:\nB", "B"),
        ("After weighing the findings, my answer is D.", "D"),
        ("The best option is option E", "E"),
        ("I would choose B because the ACTH is high.", "B"),
        ("I'd go with (A).", "A"),
        ("The answer is A because exogenous steroids explain it.", "A"),
        (r"Final answer: \boxed{C}", "C"),
        ("I think it is B.", "B"),
        ("B, because the ACTH is high.", "B"),
        # markdown
        ("**B. Pituitary adenoma**", "B"),
        ("**B) Pituitary adenoma**", "B"),
        ("The answer is **C**.", "C"),
        ("## Answer\n**D**", "D"),
        # lowercase
        ("answer: c", "C"),
        ("the answer is (b)", "B"),
        ("(d)", "D"),
        ("b) pituitary adenoma", "B"),
        ("answer: a", "A"),
        # JSON
        ('{"answer": "B"}', "B"),
        ('```json\n{"answer": "(C)"}\n```', "C"),
        ('{"choice": "d"}', "D"),
        ('{"answer": "B. Pituitary adenoma"}', "B"),
        ('Here you go: {"answer": "Adrenal carcinoma", "why": "..."}', "C"),
        # option text only
        ("Pituitary adenoma", "B"),
        ("This is most consistent with an adrenal carcinoma.", "C"),
        ("Major depressive disorder", "D"),  # not also E ("Depression" is inside D's text)
        # Chinese
        ("答案：B", "B"),
        ("答案是C", "C"),
        ("选B", "B"),
        ("我选择C。", "C"),
        ("正确答案是（D）", "D"),
        ("答案为：A、", "A"),
        ("B、垂体腺瘤", "B"),
    ],
)
def test_parses_the_stated_choice(text: str, expected: str) -> None:
    assert parse_choice(text, "ABCDE", OPTIONS) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        None,
        # two letters: ambiguous, never guessed
        "A or B",
        "A or B, hard to say",
        "Answer: B or C",
        "The answer is (B) or (C).",
        "B/C",
        "Answer: B, C",
        "It is A, B or C.",
        "Option A is wrong, option B is right",
        '{"answer": "B or C"}',
        "答案：B或C",
        # sentences starting with A / I are not the letters A / I
        "A patient with these findings needs a workup.",
        "A 45-year-old woman has Cushing syndrome.",
        "I would choose a different approach.",
        "The answer is a combination of factors.",
        # an echo of the option list is not an answer
        "A) Exogenous corticosteroid administration\nB) Pituitary adenoma\nC) Adrenal carcinoma",
        # letters outside the question's range
        "The answer is F.",
        # no answer at all
        "I cannot give medical advice.",
        "It depends on the ACTH level and the imaging.",
    ],
)
def test_ambiguous_or_missing_answers_are_none(text: str | None) -> None:
    assert parse_choice(text, "ABCDE", OPTIONS) is None


def test_pronoun_i_is_not_option_i_with_many_options() -> None:
    letters = "ABCDEFGHIJ"
    assert parse_choice("The answer I would pick is D.", letters) == "D"
    assert parse_choice("The answer I would give is B.", letters) == "B"
    assert parse_choice("Answer: I", letters) == "I"
    assert parse_choice("(I)", letters) == "I"


def test_two_options_whose_texts_both_appear_are_ambiguous() -> None:
    assert parse_choice("Either a pituitary adenoma or an adrenal carcinoma.", "ABCDE", OPTIONS) is None


def test_option_text_fallback_needs_the_options() -> None:
    assert parse_choice("Pituitary adenoma", "ABCDE") is None


def test_chinese_option_text_of_two_characters() -> None:
    options = {"A": "感激", "B": "气恼", "C": "尴尬", "D": "伤感"}
    assert parse_choice("他会感到尴尬。", "ABCD", options) == "C"
    assert parse_choice("他会感到尴尬，也有些气恼。", "ABCD", options) is None


def test_custom_json_keys() -> None:
    text = '{"emotion": "B", "cause": "C"}'
    assert parse_choice(text, "ABCD", json_keys=("emotion",)) == "B"
    assert parse_choice(text, "ABCD", json_keys=("cause",)) == "C"
    # With the default keys the JSON holds no answer; the text has no single letter either.
    assert parse_choice(text, "ABCD") is None


def test_json_helpers() -> None:
    text = 'Sure.\n```json\n{"Answer": "B"}\n```\nand {"other": 1} and {broken'
    assert extract_json_objects(text)[0] == {"Answer": "B"}
    assert json_value(text, ["answer"]) == "B"
    assert json_value(text, ["missing"]) is None


def test_letters_for() -> None:
    assert letters_for(4) == "ABCD"
    assert letters_for(10) == "ABCDEFGHIJ"
    with pytest.raises(ValueError):
        letters_for(0)
