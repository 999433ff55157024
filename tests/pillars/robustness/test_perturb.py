"""Properties of the perturbation engine (hypothesis) and a few exact examples."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trustmh.pillars.robustness.perturb import (
    DISTRACTORS,
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
