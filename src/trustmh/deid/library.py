"""Identifiers found by maintained libraries: Presidio's recognizers, ``phonenumbers``, ``python-stdnum``.

* **Presidio** (``presidio-analyzer``) runs on a *blank* spaCy pipeline (``spacy.blank("en")``:
  a tokenizer, no trained model, nothing downloaded) with only pattern recognizers: e-mail,
  credit card (Luhn), IBAN (mod-97 checksum), IP address, US SSN, UK NINO and NHS number (checksum),
  Spanish NIF/NIE, Italian fiscal code, Polish PESEL, Indian Aadhaar/PAN, UK and Canadian
  postcodes. The e-mail recognizer checks the domain with ``tldextract``'s bundled suffix list
  (never the network: the stock recognizer fetches the list on first use).
* **stdnum** validates national ids Presidio has no recognizer for (French NIR, Chinese resident
  id, Japanese My Number, Russian INN, German tax id, Dutch BSN, Brazilian CPF): a candidate shape,
  kept only when its checksum holds.
* **phonenumbers**: ``PhoneNumberMatcher`` over :data:`PHONE_REGIONS` with ``Leniency.VALID``
  (a number in a region's numbering plan). ``POSSIBLE`` (length only) also matched pieces of
  dates, years and doses ("50" of "50 mg", "2019", "10:30"); what ``VALID`` misses (fictional
  ranges, two numbers in a row read as one) the digit-run rule of :mod:`.rules` redacts anyway.

The analyzer is built once per process (:func:`analyzer`); a text is given only the recognizers
whose trigger characters it holds (most chat messages have no digit and no ``@``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

import phonenumbers
import regex
from stdnum import iban, luhn
from stdnum.br import cpf
from stdnum.cn import ric
from stdnum.de import idnr
from stdnum.fr import nir
from stdnum.jp import in_ as my_number
from stdnum.nl import bsn
from stdnum.ru import inn

from trustmh.deid.spans import Span

PHONE_REGIONS = (
    "US", "CA", "GB", "IE", "AU", "NZ", "DE", "AT", "CH", "FR", "BE", "NL", "ES", "IT", "PT", "PL", "SE",
    "RU", "UA", "CN", "HK", "TW", "JP", "KR", "IN", "SG", "SA", "AE", "EG", "MA", "IL", "TR", "BR", "MX", "ZA", "NG",
)  # fmt: skip
# Presidio entity -> our kind
PRESIDIO_KINDS = {
    "EMAIL_ADDRESS": "EMAIL",
    "CREDIT_CARD": "CARD",
    "IBAN_CODE": "IBAN",
    "IP_ADDRESS": "IP",
    "UK_POSTCODE": "POSTCODE",
    "CA_POSTAL_CODE": "POSTCODE",
    "NATIONAL_ID": "NATIONAL_ID",
    "US_SSN": "NATIONAL_ID",
    "UK_NINO": "NATIONAL_ID",
    "UK_NHS": "NATIONAL_ID",
    "ES_NIF": "NATIONAL_ID",
    "ES_NIE": "NATIONAL_ID",
    "IT_FISCAL_CODE": "NATIONAL_ID",
    "PL_PESEL": "NATIONAL_ID",
    "IN_AADHAAR": "NATIONAL_ID",
    "IN_PAN": "NATIONAL_ID",
}
_SEPARATORS = " -.\u00a0\u2009\u202f\u2010\u2011\u2012\u2013\u2014\u2212\u3000\uff0d"
_D4 = r"\d{4}"  # ids written inside CJK text have no word boundary: digits are bounded by non-digits
_SEP = "[ \\-.\u00a0\u2009\u202f\u2010-\u2014\u2212\u3000\uff0d]?"
# (name, candidate shape, checksum) for national ids Presidio does not know
STDNUM_IDS: tuple[tuple[str, str, Callable[[str], bool]], ...] = (
    (
        "FR NIR",
        rf"(?<!\d)[12]{_SEP}\d\d{_SEP}\d\d{_SEP}(?:\d\d|2A|2B){_SEP}\d{{3}}{_SEP}\d{{3}}{_SEP}\d\d\b",
        nir.is_valid,
    ),
    ("CN resident id", r"(?<!\d)\d{6}(?:19|20)\d{2}[01]\d[0-3]\d\d{3}[\dXx](?!\w)", ric.is_valid),
    ("JP My Number", rf"(?<!\d){_D4}{_SEP}{_D4}{_SEP}{_D4}(?!\d)", my_number.is_valid),
    ("RU INN", r"(?<!\d)(?:\d{12}|\d{10})(?!\d)", inn.is_valid),
    ("DE tax id", rf"(?<!\d)\d{{2}}{_SEP}\d{{3}}{_SEP}\d{{3}}{_SEP}\d{{3}}(?!\d)", idnr.is_valid),
    ("NL BSN", rf"(?<!\d)(?:\d{{4}}{_SEP}\d{{2}}{_SEP}\d{{3}}|\d{{9}})(?!\d)", bsn.is_valid),
    ("BR CPF", r"(?<!\d)\d{3}\.?\d{3}\.?\d{3}-?\d{2}(?!\d)", cpf.is_valid),
)


IBAN_CANDIDATE = regex.compile(r"(?i)(?<![\w])[a-z]{2}\d{2}(?:[ \u00a0]?[a-z0-9]{1,4}){3,8}")


def compact(value: str) -> str:
    """``value`` without separators (spaces of any width, dashes, dots) and in ASCII digits."""
    folded = "".join(str(int(c)) if c.isdecimal() else c for c in value)
    return "".join(c for c in folded if c not in _SEPARATORS)


@functools.cache
def analyzer() -> Any:
    """Presidio's analyzer on a blank spaCy pipeline with pattern recognizers only (built once)."""
    import spacy
    import tldextract
    from presidio_analyzer import (
        AnalyzerEngine,
        LocalRecognizer,
        Pattern,
        PatternRecognizer,
        RecognizerRegistry,
        RecognizerResult,
    )
    from presidio_analyzer.nlp_engine import SpacyNlpEngine
    from presidio_analyzer.predefined_recognizers import (
        CaPostalCodeRecognizer,
        CreditCardRecognizer,
        EmailRecognizer,
        EsNieRecognizer,
        EsNifRecognizer,
        IbanRecognizer,
        InAadhaarRecognizer,
        InPanRecognizer,
        IpRecognizer,
        ItFiscalCodeRecognizer,
        NhsRecognizer,
        PlPeselRecognizer,
        UkNinoRecognizer,
        UkPostcodeRecognizer,
        UsSsnRecognizer,
    )

    class BlankSpacy(SpacyNlpEngine):
        """A tokenizer only: no trained pipeline is loaded or downloaded."""

        def load(self) -> None:
            self.nlp = {"en": spacy.blank("en")}  # type: ignore[assignment]

    offline_suffixes = tldextract.TLDExtract(cache_dir=None, suffix_list_urls=())

    class OfflineEmail(EmailRecognizer):
        def validate_result(self, pattern_text: str) -> bool:
            return bool(offline_suffixes(pattern_text.rsplit("@", 1)[-1]).fqdn)

    class StdnumIban(LocalRecognizer):
        """IBANs in any case and grouping (Presidio's misses ``gb89west...`` in lower case): the
        longest run of 4-character groups after a country code whose mod-97 checksum holds."""

        def load(self) -> None:
            pass

        def analyze(self, text: str, entities: list[str], nlp_artifacts: Any = None) -> list[RecognizerResult]:
            results = []
            for match in IBAN_CANDIDATE.finditer(text):
                groups = match.group(0)
                while len(compact(groups)) >= 15:
                    if iban.is_valid(compact(groups).upper()):
                        end = match.start() + len(groups)
                        results.append(RecognizerResult("IBAN_CODE", match.start(), end, 1.0))
                        break
                    groups = groups[:-1].rstrip(" ")
            return results

    class StdnumId(PatternRecognizer):
        def __init__(self, name: str, shape: str, check: Callable[[str], bool]) -> None:
            super().__init__("NATIONAL_ID", name=name, patterns=[Pattern(name, shape, 0.5)])
            self.check = check

        def validate_result(self, pattern_text: str) -> bool:
            return bool(self.check(compact(pattern_text)))

    engine = BlankSpacy(models=[{"lang_code": "en", "model_name": "blank"}])
    engine.load()
    registry = RecognizerRegistry(supported_languages=["en"])
    recognizers = [
        OfflineEmail(),
        CreditCardRecognizer(),
        IbanRecognizer(),
        StdnumIban(supported_entities=["IBAN_CODE"]),
        IpRecognizer(),
        UsSsnRecognizer(),
        UkNinoRecognizer(),
        NhsRecognizer(),
        EsNifRecognizer(supported_language="en"),
        EsNieRecognizer(supported_language="en"),
        ItFiscalCodeRecognizer(supported_language="en"),
        PlPeselRecognizer(supported_language="en"),
        InAadhaarRecognizer(),
        InPanRecognizer(),
        UkPostcodeRecognizer(),
        CaPostalCodeRecognizer(supported_language="en"),
        *(StdnumId(name, shape, check) for name, shape, check in STDNUM_IDS),
    ]
    for recognizer in recognizers:
        registry.add_recognizer(recognizer)
    return AnalyzerEngine(registry=registry, nlp_engine=engine, supported_languages=["en"])


def _entities(text: str) -> list[str]:
    """The Presidio entities worth asking for in ``text`` (each needs an ``@``, digits or a postcode shape)."""
    digits = sum(c.isdecimal() for c in text)
    wanted = ["EMAIL_ADDRESS"] if "@" in text else []
    if digits >= 1:
        wanted += ["UK_POSTCODE", "CA_POSTAL_CODE"]
    if digits >= 4:
        wanted += ["IP_ADDRESS", "IN_PAN", "UK_NINO", "ES_NIF", "ES_NIE", "IT_FISCAL_CODE"]
    if digits >= 9:
        wanted += ["CREDIT_CARD", "IBAN_CODE", "US_SSN", "UK_NHS", "PL_PESEL", "IN_AADHAAR", "NATIONAL_ID"]
    return wanted


def presidio_spans(text: str) -> list[Span]:
    entities = _entities(text)
    if not entities:
        return []
    results = analyzer().analyze(text, language="en", entities=entities, score_threshold=0.0)
    return [Span(PRESIDIO_KINDS[r.entity_type], r.start, r.end, text[r.start : r.end]) for r in results]


def phone_spans(text: str) -> Iterator[Span]:
    """Phone numbers valid in any of :data:`PHONE_REGIONS` (any spelling ``phonenumbers`` parses:
    fullwidth digits, non-breaking or ideographic spaces, en dashes)."""
    if sum(c.isdecimal() for c in text) < 7:
        return
    seen: set[tuple[int, int]] = set()
    for region in PHONE_REGIONS:
        for match in phonenumbers.PhoneNumberMatcher(text, region, leniency=phonenumbers.Leniency.VALID):
            if (match.start, match.end) not in seen:
                seen.add((match.start, match.end))
                yield Span("PHONE", match.start, match.end, match.raw_string)


def is_card(digits: str) -> bool:
    return 13 <= len(digits) <= 19 and luhn.is_valid(digits)


def library_spans(text: str, presidio: bool = True) -> list[Span]:
    """Phone numbers, and with ``presidio`` Presidio's finds (loading Presidio imports spaCy: ~90 MB)."""
    return (presidio_spans(text) if presidio else []) + list(phone_spans(text))
