"""Properties of the perturbation engine (hypothesis) and a few exact examples."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trustmh.pillars.robustness.perturb import (
    DISTRACTORS,
    HOMOGLYPHS,
    KINDS,
    MAX_INTENSITY,
    default_regions,
    edits_count,
    perturb,
    perturb_regions,
    perturb_span,
)


def levenshtein(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


words = st.text(alphabet=st.sampled_from("abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"), min_size=1, max_size=8)
texts = st.lists(words, min_size=0, max_size=25).map(" ".join) | st.text(max_size=80)
kinds = st.sampled_from(KINDS)
intensities = st.integers(min_value=0, max_value=MAX_INTENSITY)
seeds = st.integers(min_value=0, max_value=10_000)


@given(texts, kinds, intensities, seeds)
def test_same_seed_same_text(text: str, kind: str, intensity: int, seed: int) -> None:
    assert perturb(text, kind, intensity, seed) == perturb(text, kind, intensity, seed)


@given(texts, kinds, seeds)
def test_intensity_zero_is_identity(text: str, kind: str, seed: int) -> None:
    assert perturb(text, kind, 0, seed) == text


@settings(max_examples=60, deadline=None)
@given(texts, kinds, seeds)
def test_edit_distance_non_decreasing_in_intensity(text: str, kind: str, seed: int) -> None:
    distances = [levenshtein(text, perturb(text, kind, level, seed)) for level in range(MAX_INTENSITY + 1)]
    assert distances == sorted(distances), distances


@given(texts, texts, texts, kinds, intensities, seeds)
def test_protected_text_never_touched(
    prefix: str, editable: str, suffix: str, kind: str, intensity: int, seed: int
) -> None:
    text = prefix + editable + suffix
    out = perturb_regions(text, [(len(prefix), len(prefix) + len(editable))], kind, intensity, seed)
    assert out.startswith(prefix) and out.endswith(suffix)
    assert len(out) - len(suffix) >= len(prefix)


def test_every_kind_changes_a_normal_sentence_at_intensity_1() -> None:
    text = "Lately I have been feeling very tired and I cannot focus at work."
    for kind in KINDS:
        assert perturb(text, kind, 1, 7) != text, kind


def test_distractor_count_is_the_intensity() -> None:
    out = perturb("I feel anxious.", "append_distractor", 3, 0)
    assert out.startswith("I feel anxious. ") and sum(s in out for s in DISTRACTORS) == 3


def test_edits_count_grows_with_intensity() -> None:
    assert [edits_count(40, level) for level in range(6)] == [0, 2, 4, 8, 14, 20]
    assert edits_count(3, 1) == 1 and edits_count(0, 5) == 0


def test_span_only_is_perturbed() -> None:
    prompt = "Messages:\nI can't sleep and my chest is tight.\nCategory:"
    out = perturb_span(prompt, "I can't sleep and my chest is tight.", "insert_symbol", 5, 3)
    assert out.startswith("Messages:\n") and out.endswith("\nCategory:") and out != prompt


def test_default_regions_keep_option_markers_and_answer_cue() -> None:
    question = "Which is most likely?\nA. Major depression\n(B) Panic disorder\nC) Bipolar disorder\nAnswer:"
    out = perturb_regions(question, default_regions(question), "delete_char", 5, 1)
    lines = out.splitlines()
    assert lines[1].startswith("A. ") and lines[2].startswith("(B) ") and lines[3].startswith("C) ")
    assert lines[-1] == "Answer:"


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="unknown perturbation kind 'shout'"):
        perturb("x", "shout", 1)
    with pytest.raises(ValueError, match="from 0 to 5"):
        perturb("x", "typos", 6)


SENTENCE = "I'm really excited about the trip we planned and can't wait to explore new places together!"


@given(texts, intensities, seeds)
def test_homoglyphs_only_swap_latin_letters_for_look_alikes(text: str, intensity: int, seed: int) -> None:
    out = perturb(text, "homoglyph", intensity, seed)
    assert len(out) == len(text)
    assert all(new == old or new == HOMOGLYPHS.get(old) for old, new in zip(text, out, strict=True))


def test_homoglyph_examples() -> None:
    out = perturb("a calm place", "homoglyph", 5, 1)
    assert out != "a calm place" and out.encode("ascii", "ignore").decode() != out
    assert HOMOGLYPHS["a"] == "\u03b1" and HOMOGLYPHS["o"] == "\u043e"  # Greek alpha, Cyrillic o


@given(texts, intensities, seeds)
def test_word_deletion_keeps_the_remaining_words_in_order(text: str, intensity: int, seed: int) -> None:
    out = perturb(text, "delete_words", intensity, seed)
    remaining = iter(text)
    assert all(ch in remaining for ch in out)  # a subsequence: nothing added or reordered


def test_word_deletion_removes_the_share_of_words() -> None:
    out = perturb(SENTENCE, "delete_words", 3, 2)
    assert len(out.split()) < len(SENTENCE.split()) and "  " not in out


@given(texts, seeds)
def test_stacking_prepends_sentences_only_from_intensity_3(text: str, seed: int) -> None:
    for level in range(MAX_INTENSITY + 1):
        out = perturb(text, "stacked", level, seed)
        added = sum(out.count(d) - text.count(d) for d in DISTRACTORS)
        assert added == (level - 2 if text and level >= 3 else 0), (level, out)


def test_stacked_stages_on_a_sentence() -> None:
    character, word, sentence = (perturb(SENTENCE, "stacked", level, 3) for level in (1, 2, 3))
    # Character stage only: no word is added, removed or moved.
    assert len(character.split()) == len(SENTENCE.split()) and character != SENTENCE
    # Word stage on top: words are deleted (and neighbours swapped).
    assert len(word.split()) < len(SENTENCE.split())
    # Sentence stage on top: one distractor sentence in front.
    assert sum(sentence.startswith(d + " ") for d in DISTRACTORS) == 1
    assert perturb(SENTENCE, "stacked", 5, 3).count(".") >= 3
