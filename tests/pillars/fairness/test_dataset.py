"""ESConv loader and demographic injection."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trustmh.core.errors import DataFormatError, UserError
from trustmh.data.loaders.esconv import load_esconv, load_esconv_fair
from trustmh.pillars.fairness.dataset import (
    esconv_fair_dataset,
    parse_identity_turn,
    starter_dialogues,
    up_to_last_seeker_turn,
    variant_sample,
)
from trustmh.pillars.fairness.demographics import ATTRIBUTES, GROUPS, inject, variants


def test_real_file(shared_data: Path) -> None:
    dialogues = load_esconv_fair(shared_data)
    assert len(dialogues) == 11
    assert [d.id for d in dialogues] == [f"esconv_fair-{i}" for i in range(11)]
    first = dialogues[0]
    assert first.emotion_type == "anxiety" and first.problem_type == "job crisis"
    assert first.turns[1].speaker == "supporter" and first.turns[1].strategy == "Question"


def test_bad_speaker_names_item_and_turn(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    dialog = [
        {"speaker": "seeker", "annotation": {}, "content": "hi"},
        {"speaker": "helper", "annotation": {}, "content": "hello"},
    ]
    path.write_text(
        json.dumps([{"situation": "s", "emotion_type": "e", "problem_type": "p", "dialog": dialog}]), encoding="utf-8"
    )
    with pytest.raises(
        DataFormatError,
        match=r"bad\.json:conversation 0, turn 1, field 'speaker': expected \"seeker\" or \"supporter\", found 'helper'",
    ):
        load_esconv(path)
    path.write_text('[{"situation": "s"', encoding="utf-8")
    with pytest.raises(DataFormatError, match=r"bad\.json:line 1: expected valid JSON"):
        load_esconv(path)


def _identity_index(dialogue, where: str) -> int:
    seeker = [i for i, t in enumerate(dialogue.turns) if t.speaker == "seeker"]
    return seeker[0] if where == "first" else seeker[-1]


@pytest.mark.parametrize("where", ["last", "first"])
@pytest.mark.parametrize("variant", variants()[1:], ids=lambda v: v.key)
def test_injection_changes_only_one_seeker_turn(variant, where) -> None:
    for dialogue in starter_dialogues():
        changed = inject(dialogue, variant, where)
        index = _identity_index(dialogue, where)
        original = dialogue.turns[index].content
        expected = f"{variant.sentence} {original}" if where == "first" else f"{original} {variant.sentence}"
        assert changed.turns[index].content == expected
        assert changed.turns[:index] == dialogue.turns[:index]
        assert changed.turns[index + 1 :] == dialogue.turns[index + 1 :]
        assert (changed.id, changed.situation, changed.emotion_type, changed.problem_type) == (
            dialogue.id,
            dialogue.situation,
            dialogue.emotion_type,
            dialogue.problem_type,
        )


def test_last_placement_closes_the_message_the_model_answers() -> None:
    """Consecutive seeker turns become one user message: the sentence ends it, not its middle."""
    from trustmh.data.loaders.esconv import EsconvDialogue, EsconvTurn

    turns = tuple(
        EsconvTurn(speaker, text, None)
        for speaker, text in [
            ("seeker", "Hello"),
            ("supporter", "Hi, what is on your mind?"),
            ("seeker", "Work."),
            ("seeker", "My boss shouts at me."),
            ("supporter", "That sounds hard."),
        ]
    )
    dialogue = EsconvDialogue("d", "", turns)
    sample = variant_sample(dialogue, variants(("gender",))[2], "last")
    assert [m.text for m in sample.input[1:]] == [
        "Hello",
        "Hi, what is on your mind?",
        "Work.\nMy boss shouts at me. I'm a woman.",
    ]


def test_injection_on_real_dialogues_starting_with_supporter(shared_data: Path) -> None:
    for dialogue in load_esconv_fair(shared_data):
        for where in ("last", "first"):
            changed = inject(dialogue, variants(("age",))[1], where)
            differing = [i for i, (a, b) in enumerate(zip(dialogue.turns, changed.turns, strict=True)) if a != b]
            assert len(differing) == 1 and changed.turns[differing[0]].speaker == "seeker"


def test_samples_end_on_a_seeker_turn_and_are_paired(shared_data: Path) -> None:
    dataset = esconv_fair_dataset("benchmark", str(shared_data))
    per_dialogue = 1 + sum(len(g) for g in GROUPS.values())
    assert len(dataset) == 11 * per_dialogue
    for sample in dataset:
        assert sample.input[-1].role == "user"
    baseline = [s for s in dataset if s.metadata["dialogue_id"] == "esconv_fair-0"]
    assert len({s.metadata["variant"] for s in baseline}) == per_dialogue
    # Only the last user message differs between two variants of the same dialogue: they share
    # the whole conversation before it.
    a, b = baseline[0].input, baseline[5].input
    differing = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x.text != y.text]
    assert differing == [len(a) - 1]


def test_first_placement_is_still_available(shared_data: Path) -> None:
    dataset = esconv_fair_dataset("benchmark", str(shared_data), identity_turn="first")
    baseline = [s for s in dataset if s.metadata["dialogue_id"] == "esconv_fair-0"]
    a, b = baseline[0].input, baseline[5].input
    differing = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x.text != y.text]
    first_user = next(i for i, m in enumerate(a) if m.role == "user")
    assert differing == [first_user]


def test_unknown_identity_turn_is_a_user_error() -> None:
    with pytest.raises(UserError, match="identity_turn must be one of last, first"):
        parse_identity_turn("middle")


def test_truncation_drops_trailing_supporter_turns() -> None:
    dialogue = starter_dialogues()[0]
    assert up_to_last_seeker_turn(dialogue.turns) == dialogue.turns
    assert set(ATTRIBUTES) == {"race", "gender", "age", "religion"}
