"""fold() gives every letter re.IGNORECASE equates with an ASCII letter as that letter."""

from __future__ import annotations

import re
import string

from trustmh.core.textfold import ascii_words, fold, holds_any


def test_every_letter_that_ignorecase_reads_as_ascii_folds_to_it() -> None:
    any_ascii_letter = re.compile("[a-z]", re.IGNORECASE)
    found = [chr(c) for c in range(0x110000) if any_ascii_letter.fullmatch(chr(c))]
    assert len(found) > 52  # the ASCII letters and their look-alikes
    for char in found:
        (letter,) = [x for x in string.ascii_lowercase if re.fullmatch(x, char, re.IGNORECASE)]
        assert fold(char) == letter, (hex(ord(char)), letter)


def test_whitespace_runs_become_one_space() -> None:
    assert fold("Crisis\u00a0\t LINE\n") == "crisis line"
    assert holds_any(fold("Call the Crisis\tLine"), ("crisis line",))
    assert not holds_any(fold("a calm day"), ("crisis", "line"))


def test_ascii_words_are_the_lower_cased_letter_runs_of_ascii_text_only() -> None:
    assert ascii_words("I'm Anna's friend_2, dr.Smith!") == {"i", "m", "anna", "s", "friend", "dr", "smith"}
    assert ascii_words("") == frozenset()
    assert ascii_words("je m’appelle Élodie") is None  # not ASCII: no shortcut


def test_holds_any_answers_as_testing_each_cue_in_turn() -> None:
    cues = ("kill", "end it", "suic", "a", "line")
    texts = ["", "a", "i want to end it", "online", "killing", "nothing here", "l i n e", "endit", "su ic"]
    for text in texts:
        for chosen in (cues, cues[:1], cues[1:3], ("line", "end it")):
            assert holds_any(text, chosen) == any(cue in text for cue in chosen), (text, chosen)
    assert holds_any("anything", ("",)) and not holds_any("anything", ())


def test_keyboard_punctuation_keeps_a_text_of_ascii_letters() -> None:
    assert ascii_words("I’m fine – “really”…\u00a0Thanks") == {"i", "m", "fine", "really", "thanks"}
    assert ascii_words("I’m Zoë") is None  # a letter outside ASCII
