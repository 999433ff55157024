"""The generic extractor of prompt templates from upstream code (no execution, exact text)."""

from __future__ import annotations

import pytest

from trustmh.data.upstream_code import (
    Field,
    UpstreamCodeError,
    call_keyword,
    literal_value,
    string_template,
)

MODULE = '''
HEADER = "Top " "level"

class Scorer:
    def score(self, turns, kind):
        conversation = "\\n".join(turns)
        prompt = f"""Rate this:
{conversation}
Kind: {kind!r} {len(turns):03d}"""
        return client.chat(prompt, temperature=0.7, max_tokens=10)

def build(sample):
    intro = "Intro.\\n"
    prompt = (
        intro + "Q: "
        f"{sample['q']}\\n"
        "Answer: "
    )
    return prompt
'''


def test_method_f_string_keeps_text_and_fields_exactly() -> None:
    template = string_template(MODULE, "Scorer.score", variable="prompt")
    assert template.fields == ("conversation", "kind", "len(turns)")
    assert template.parts[0] == "Rate this:\n"
    assert Field("kind", "r", "") in template.parts and Field("len(turns)", "", "03d") in template.parts
    text = template.render({"conversation": "a\nb", "kind": "x", "len(turns)": 2})
    assert text == "Rate this:\na\nb\nKind: 'x' 002"
    # what Python itself would produce
    conversation, kind, turns = "a\nb", "x", ["a", "b"]
    assert (
        text
        == f"""Rate this:
{conversation}
Kind: {kind!r} {len(turns):03d}"""
    )


def test_concatenation_follows_local_names_and_implicit_joins() -> None:
    template = string_template(MODULE, "build", variable="prompt")
    assert template.render({"sample['q']": "why?"}) == "Intro.\nQ: why?\nAnswer: "


def test_module_constant_and_literals() -> None:
    assert string_template(MODULE, None, variable="HEADER").literal == "Top level"
    assert call_keyword(MODULE, "Scorer.score", "chat", "temperature") == 0.7
    assert literal_value(MODULE, None, "HEADER") == "Top level"


def test_shape_changes_are_errors_not_silent_text() -> None:
    with pytest.raises(UpstreamCodeError, match="no function"):
        string_template(MODULE, "Scorer.gone", variable="prompt")
    with pytest.raises(UpstreamCodeError, match="expected one assignment"):
        string_template(MODULE, "build", variable="missing")
    with pytest.raises(UpstreamCodeError, match="no value"):
        string_template(MODULE, "build", variable="prompt").render({})
    with pytest.raises(UpstreamCodeError, match="has fields"):
        _ = string_template(MODULE, "build", variable="prompt").literal


FORMAT_MODULE = """
def evaluate(rows):
    for row in rows:
        question = "Who {}?".format(row['x'].lower())
        item = {'info': row['x'], 'input': "{}\\nText:{}\\nQ: {}".format(intro, row['r'], question)}
"""


def test_format_calls_give_their_receiver_and_arguments_as_written() -> None:
    from trustmh.data.upstream_code import assigned_expression, dict_entry, format_arguments, format_receiver

    question = assigned_expression(FORMAT_MODULE, "evaluate", "question")
    assert format_receiver(question) == "Who {}?"
    assert format_arguments(question) == ("row['x'].lower()",)
    request = dict_entry(FORMAT_MODULE, "evaluate", "input", {})
    assert format_receiver(request) == "{}\nText:{}\nQ: {}"
    assert format_arguments(request) == ("intro", "row['r']", "question")
    with pytest.raises(UpstreamCodeError, match="one assignment to 'item2'"):
        assigned_expression(FORMAT_MODULE, "evaluate", "item2")
    with pytest.raises(UpstreamCodeError, match="not a"):
        format_arguments(dict_entry(FORMAT_MODULE, "evaluate", "info", {}))
