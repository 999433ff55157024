"""The library side of de-identification: built offline once, phone spellings, checksums."""

from __future__ import annotations

import socket

import pytest

from trustmh.deid import find_spans
from trustmh.deid.library import analyzer, phone_spans


def _kinds(text: str) -> dict[str, str]:
    return {span.value: span.kind for span in find_spans(text)}


def test_the_analyzer_is_built_without_the_network_and_only_once(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("de-identification tried to reach the network")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    analyzer.cache_clear()
    engine = analyzer()
    assert analyzer() is engine
    assert engine.nlp_engine.get_nlp("en").pipe_names == []  # blank spaCy: a tokenizer, no trained model
    assert _kinds("write to anna.smith@example.com")["anna.smith@example.com"] == "EMAIL"  # suffix list bundled


@pytest.mark.parametrize(
    "text",
    [
        "ring 07700\u00a0900\u00a0123 tonight",  # non-breaking spaces
        "call 415\u2013555\u20130137",  # en dashes
        "電話は０９０－１２３４－５６７８です",  # fullwidth digits and dash
        "+7 (495) 123-45-67",
    ],
)
def test_phone_spellings_are_found_whole(text: str) -> None:
    (span,) = [s for s in find_spans(text) if s.kind == "PHONE"]
    assert sum(c.isdecimal() for c in span.value) == sum(c.isdecimal() for c in text)


def test_two_phone_numbers_in_a_row_are_both_removed() -> None:
    text = "numbers: 415 555 0138 415 555 0139"
    covered = {i for s in find_spans(text) for i in range(s.start, s.end)}
    assert all(i in covered for i, c in enumerate(text) if c.isdigit())


def test_phone_leniency_valid_skips_doses_years_and_times() -> None:
    assert list(phone_spans("took 50 mg at 10:30 every day since 2019, 3 times")) == []


def test_card_and_iban_need_their_checksums() -> None:
    assert _kinds("card 4111 1111 1111 1111")["4111 1111 1111 1111"] == "CARD"
    assert _kinds("card 4111 1111 1111 1112").get("4111 1111 1111 1112") != "CARD"  # Luhn fails: a long number still
    assert _kinds("iban gb82west12345698765432")["gb82west12345698765432"] == "IBAN"  # lower case, ungrouped
    assert "IBAN" not in _kinds("iban GB00 WEST 1234 5698 7654 32").values()


def test_national_ids_are_checked_by_stdnum() -> None:
    assert _kinds("マイナンバーは1234 5678 9018です").get("1234 5678 9018") == "NATIONAL_ID"  # glued to Japanese
    assert "NATIONAL_ID" not in _kinds("my course code ab 12 cd").values()


def test_a_word_with_an_ids_length_is_no_id() -> None:
    assert find_spans("my psychiatrist suggested sertraline") == []


def test_the_detectors_finder_does_without_presidio() -> None:
    import subprocess
    import sys

    code = (
        "import sys\nfrom trustmh.audit.detectors import identifiers\n"
        "found = identifiers('mail tom.baker@example.com or 07700 900123')\n"
        "assert found == {'tom.baker@example.com', '07700 900123'}, found\n"
        "assert 'spacy' not in sys.modules and 'presidio_analyzer' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
