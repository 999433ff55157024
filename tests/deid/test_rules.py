"""Our own rules (what no library covers), one case per rule, and what they must leave alone."""

from __future__ import annotations

import pytest

from trustmh.deid import find_names, find_spans
from trustmh.deid.rules import is_public_number


def _covered(text: str, value: str, kind: str | None = None) -> bool:
    names = find_names([text])
    start = text.index(value)
    spans = [s for s in find_spans(text, names) if kind is None or s.kind == kind]
    return all(any(s.start <= i < s.end for s in spans) for i in range(start, start + len(value)) if text[i].isalnum())


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("my name is anna and i can't sleep", "anna"),  # lower case after a strong cue
        ("call me josé", "josé"),
        ("my sister Zoë Álvarez knows", "Zoë Álvarez"),  # accents after a relation
        ("Thanks Siobhán, that helped", "Siobhán"),  # greeting
        ("my therapist Dr. O'Neil said so", "O'Neil"),  # title
        ("I'm Marcus, 24", "Marcus"),
        ("je m'appelle Élodie", "Élodie"),
        ("ich heiße jürgen", "jürgen"),
        ("me llamo Íñigo", "Íñigo"),
        ("меня зовут Анна", "Анна"),
        ("моя подруга Ольга волнуется", "Ольга"),
        ("我叫王小明，最近很难受", "王小明"),
        ("私の名前は田中花子です", "田中花子"),
        ("اسمي فاطمة", "فاطمة"),
    ],
)
def test_cued_names(text: str, value: str) -> None:
    assert _covered(text, value, "NAME")


def test_a_cued_name_is_found_everywhere_in_the_conversation() -> None:
    names = find_names(["my name is anna", "nobody listens"])
    later = "Anna, you matter"  # given in lower case once: any case afterwards
    assert [s.value for s in find_spans(later, names)] == ["Anna"]


@pytest.mark.parametrize(
    "text",
    [
        "I'm Tired of all this",
        "my therapist said it helps",
        "call me back later",
        "Hi there",
        "my name is not important",
    ],
)
def test_words_after_a_cue_that_are_not_names_stay(text: str) -> None:
    assert [s for s in find_spans(text, find_names([text])) if s.kind == "NAME"] == []


@pytest.mark.parametrize(
    ("text", "value", "kind"),
    [
        ("follow @anna_k92 there", "@anna_k92", "HANDLE"),
        ("my insta is anna.k92", "anna.k92", "HANDLE"),
        ("posted on u/throwaway_anna", "u/throwaway_anna", "HANDLE"),
        ("微信号：wxid_xiaoming88", "wxid_xiaoming88", "HANDLE"),
        ("my page https://www.facebook.com/anna.smith.3", "https://www.facebook.com/anna.smith.3", "PROFILE_URL"),
        ("see linkedin.com/in/tom-baker-12345", "linkedin.com/in/tom-baker-12345", "PROFILE_URL"),
        ("メールはhanako.tanaka@example.jpです", "hanako.tanaka@example.jp", "EMAIL"),  # glued to Japanese
    ],
)
def test_handles_profile_urls_and_glued_emails(text: str, value: str, kind: str) -> None:
    assert _covered(text, value, kind)


@pytest.mark.parametrize(
    "text",
    [
        "there were a few instances of this",  # "insta"
        "she just ignores me",  # "ig"
        "Does reddit make it worse",
        "all 3 did way better than me",  # "way" is a street type only capitalised or after "live at"
        "Plz tell me what to do",  # "PLZ" is a German postcode cue only in capitals, with digits
    ],
)
def test_ordinary_words_near_platform_or_street_words_stay(text: str) -> None:
    assert find_spans(text) == []


def test_public_web_pages_stay() -> None:
    assert find_spans("chat at https://988lifeline.org or see www.nhs.uk/mental-health") == []


@pytest.mark.parametrize(
    ("text", "value", "kind"),
    [
        ("i live at 42 elm street", "42 elm street", "ADDRESS"),
        ("my flat is at 3 rowan close", "3 rowan close", "ADDRESS"),
        ("7 Ocean Drive apt 4", "7 Ocean Drive apt 4", "ADDRESS"),
        ("j'habite au 12 rue de la Paix", "12 rue de la Paix", "ADDRESS"),
        ("wohne Berliner Str. 12a", "Berliner Str. 12a", "ADDRESS"),
        ("vivo en Calle Mayor 12", "Calle Mayor 12", "ADDRESS"),
        ("адрес: ул. Ленина, д. 5, кв. 12", "ул. Ленина, д. 5, кв. 12", "ADDRESS"),
        ("我住在北京市朝阳区建国路88号", "北京市朝阳区建国路88号", "ADDRESS"),
        ("住所は東京都新宿区西新宿2-8-1です", "東京都新宿区西新宿2-8-1", "ADDRESS"),
        ("أسكن في شارع الملك فهد ١٢", "شارع الملك فهد ١٢", "ADDRESS"),
        ("Springfield, IL 62704", "IL 62704", "POSTCODE"),
        ("j'habite 75008 Paris", "75008 Paris", "POSTCODE"),
        ("〒160-0023 東京都", "〒160-0023", "POSTCODE"),
        ("邮编100020", "邮编100020", "POSTCODE"),
        ("адрес: 119019, Москва", "119019, Москва", "POSTCODE"),
        ("postcode sw1a 1aa", "sw1a 1aa", "POSTCODE"),  # Presidio's, in lower case
    ],
)
def test_addresses_and_postcodes(text: str, value: str, kind: str) -> None:
    assert _covered(text, value, kind)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I was born on 3 March 1990", "3 March 1990"),
        ("DOB: 03/04/1990", "03/04/1990"),
        ("je suis né le 12 mars 1985", "12 mars 1985"),
        ("geboren am 3. Mai 1977", "3. Mai 1977"),
        ("дата рождения: 12 марта 1985 г.", "12 марта 1985"),
        ("1990年3月4日出生", "1990年3月4日"),
        ("生年月日：1988年11月2日", "1988年11月2日"),
    ],
)
def test_dates_of_birth_after_a_cue(text: str, value: str) -> None:
    assert _covered(text, value, "DOB")


@pytest.mark.parametrize(
    "text",
    ["my appointment is on 12 March 2024", "since 03/04/2023", "2024年5月6日に病院に行った", "between 2019-2021"],
)
def test_other_dates_stay(text: str) -> None:
    assert find_spans(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("SSN 123-45-6789", "123-45-6789"),
        ("my MRN is 00482913", "00482913"),
        ("member ID: WX 8812 4471", "WX 8812 4471"),
        ("ref 99887766 ok", "99887766"),
    ],
)
def test_identifiers_after_a_cue_and_long_digit_runs(text: str, value: str) -> None:
    assert _covered(text, value)


@pytest.mark.parametrize(
    "text",
    [
        "call or text 988",
        "Samaritans: 116 123",
        "text HOME to 741741",
        "call 999, 911 or 112, or NHS 111",
        "the lifeline 1-800-273-8255",
        "PHQ-9 of 18, GAD-7 of 15, COVID-19, ICD-10 F32.1, vitamin B12",
        "sertraline 50 mg, lithium 400 mg twice a day",
        "I slept 6 hours and walked 10,000 steps",
    ],
)
def test_crisis_lines_and_clinical_terms_stay(text: str) -> None:
    assert find_spans(text) == []


def test_public_numbers_are_compared_by_digits() -> None:
    assert is_public_number("1 (800) 273-8255") and is_public_number("116\u00a0123")
    assert not is_public_number("07700 900123")
