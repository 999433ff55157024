"""Our own rules, for what no maintained library covers (each has its tests in ``tests/deid/test_rules.py``).

* **names after a cue** (:func:`cued_names`), in any case after a strong cue ("my name is", "call
  me", "je m'appelle", "меня зовут", "我叫", "اسمي", ...) and capitalised (any script, accents
  included) after a weak one (a title, a relation "my sister", a greeting, "I'm ... ,");
* **social handles** (``@name``, "insta: name", ``u/name``, "WeChat ID ...") and **profile URLs**
  (a path on a social platform; other URLs, such as a service's web page, are kept);
* **street addresses** in English (any case), French, German, Spanish/Italian, Russian, Chinese,
  Japanese and Arabic forms; **postcodes** that need context (US ZIP after a state, a 4-5 digit
  code before a city, ``〒``, ``邮编``, a Russian index); UK and Canadian postcodes are Presidio's;
* **dates of birth** after (or, in Chinese and Japanese, before) a birth cue: other dates stay;
* **identifiers after a cue** (MRN, account, member, passport, ...), codes mixing capitals and at
  least four digits, and the safety net: any run of 7+ digits that is not a date.

:data:`PUBLIC_NUMBERS` (crisis lines, emergency numbers) are never redacted.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

import regex

from trustmh.core.textfold import ascii_words, holds_any
from trustmh.deid.spans import Span

# Crisis lines and emergency numbers (digits only): public services, kept as written.
PUBLIC_NUMBERS = frozenset(
    "988 911 999 112 111 000 116123 116111 116117 741741 85258 18002738255 8002738255 08001111 "
    "08457909090 0800689414 08000684141 08001110111 08001110222 3114 024 131114 18002738255 "
    "88002000122 4001619995 0570064556 0120279338 08006895652 999 0800585858".split()
)
# Digits of a number in any width (fullwidth and Arabic-Indic digits count)
_DIGIT = r"\d"
_SEP = r"[ \-.\u00a0\u2009\u202f\u2010-\u2015\u2212\u3000\uff0d/()（）]"

_CAP = r"\p{Lu}(?:[\p{Ll}\p{M}]+|(?=['’]\p{Lu}))(?:['’\-]\p{Lu}?[\p{Ll}\p{M}]+)?"  # Anna, O'Neil, Zoë, Анна
_ANY = r"[\p{L}\p{M}]{2,}(?:['’\-][\p{L}\p{M}]+)?"
_CJK_NAME = r"[\p{Han}\p{Katakana}ー]{2,4}"
_ARABIC_NAME = r"[\p{Arabic}]{2,}(?:\s+[\p{Arabic}]{2,})?"
STRONG_CUES = (
    r"my name is|my name's|my names|name\s*[:：]|call me|i'?m called|i am called|named|they call me|"
    r"je m['’]appelle|mon nom est|ich hei(?:ß|ss)e|mein name ist|me llamo|mi nombre es|mi chiamo|"
    r"меня зовут|зовут|моё имя|мое имя"
)
_CJK_CUES = r"我叫|我的名字是|我的名字叫|名叫|私の名前は|わたしの名前は|名前は|僕は|私は"
_ARABIC_CUES = r"اسمي|إسمي|اسمها|اسمه"
_RELATIONS = (
    r"wife|husband|partner|son|daughter|mother|mom|mum|father|dad|brother|sister|friend|best friend|boss|"
    r"girlfriend|boyfriend|therapist|doctor|psychiatrist|counsellor|counselor|colleague|coworker|neighbour|"
    r"neighbor|roommate|flatmate|cousin|aunt|uncle|grandma|grandmother|grandpa|grandfather|manager|teacher|ex|"
    r"fianc[eé]e?|child|kid|nephew|niece|"
    r"(?:ma|mon) (?:sœur|soeur|frère|frere|ami|amie|mère|mere|père|pere|copain|copine|mari|femme)|"
    r"(?:mein|meine) (?:Schwester|Bruder|Freund|Freundin|Mutter|Vater|Mann|Frau)|"
    r"mi (?:hermana|hermano|amigo|amiga|madre|padre|novio|novia|esposo|esposa)|"
    r"(?:моя|мой|мою|моего) (?:сестра|брат|друг|подруга|мама|папа|муж|жена|сестру|подругу)"
)
_TITLES = r"Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Herr|Frau|Monsieur|Madame|Mme|Mlle|Señor|Señora|Sr|Sra|Dott|Dottoressa"
_GREETINGS = r"hi|hello|hey|dear|thanks|thank you|sincerely|regards|bonjour|salut|hola|hallo|ciao|привет|здравствуйте"
_NAME_PATTERNS = (
    (regex.compile(rf"\b(?:{STRONG_CUES})\s+(?P<n>{_ANY}(?:\s+{_ANY})?)", regex.IGNORECASE), True),
    (regex.compile(rf"(?:{_CJK_CUES})\s*(?P<n>{_CJK_NAME})"), False),
    (regex.compile(rf"(?:{_ARABIC_CUES})\s+(?P<n>{_ARABIC_NAME})"), False),
    (regex.compile(rf"\b(?:{_TITLES})\.?\s+(?P<n>{_CAP}(?:\s+{_CAP})?)"), False),
    (regex.compile(rf"(?i:\b(?:my|our)\s+(?:{_RELATIONS})|\b(?:{_RELATIONS})),?\s+(?P<n>{_CAP}(?:\s+{_CAP})?)"), False),
    (regex.compile(rf"(?i:\b(?:{_GREETINGS})),?\s+(?P<n>{_CAP}(?:\s+{_CAP})?)\b"), False),
    (regex.compile(rf"\b(?:I'm|I’m|I am|this is|c'est|je suis|soy|ich bin|я)\s+(?P<n>{_CAP}(?:\s+{_CAP})?)(?=\s*[,.!;]|\s+and\b|\s+here\b|$)"), False),
)  # fmt: skip
# Words the cues catch that are not names (checked lower-cased).
NOT_NAMES = frozenset(
    """i the a an and but so not just really very sorry okay ok fine good great there here this that it
    everyone everybody anyone someone nobody today tomorrow yesterday tonight monday tuesday wednesday thursday
    friday saturday sunday god again still feeling going trying glad happy sad tired afraid scared worried
    alright all well yes no back later anytime crazy whenever now soon maybe please asap when if whatever
    anything something nothing is was be been being were are am my your his her their our me you him them us
    to of in on at for with about from by as or nor because after before since until while who what which where
    why how again ever never always sometimes often said says told tells thinks thought wants wanted keeps
    doesn't don't didn't isn't wasn't can't won't has had have does did do will would could should might must
    depressed anxious lonely stressed exhausted overwhelmed suicidal hopeless fine ok lost stuck broken numb
    mental health help support therapy crisis anxiety depression someone somebody dr mr mrs ms mx prof""".split()
)


def _found(text: str, pattern: Any, kind: str, group: str | int = 0, strip: str = " ") -> Iterator[Span]:
    """Each match's ``group`` of ``pattern`` in ``text``, stripped of ``strip``, as a span of ``kind``."""
    for match in pattern.finditer(text):
        raw = match.group(group)
        value = raw.strip(strip)
        if value:
            start = match.start(group) + len(raw) - len(raw.lstrip(strip))
            yield Span(kind, start, start + len(value), value)


def _name_words(name: str) -> list[str]:
    return [w for w in name.split() if w.lower() not in NOT_NAMES]


# What each of _NAME_PATTERNS needs to match a text of ASCII letters (see textfold.ascii_words): one of its
# cue words as a letter run, or one of its cue strings in the lower-cased text; the weak cues also
# need a capitalised word after whitespace. A cue changed above changes here. (CJK and Arabic cues
# never match ASCII text.) Most chat messages then run no name pattern at all.
class _AsciiCue(NamedTuple):
    strings: tuple[str, ...] = ()
    words: frozenset[str] = frozenset()
    needs_capital: bool = True


_ASCII_CUES = (
    _AsciiCue(("name", "call", "je m", "mon nom", "hei", "llamo", "nombre", "chiamo"), needs_capital=False),
    _AsciiCue(needs_capital=False),  # CJK
    _AsciiCue(needs_capital=False),  # Arabic
    _AsciiCue(
        words=frozenset("mr mrs ms miss mx dr prof herr frau monsieur madame mme mlle sr sra dott dottoressa".split())
    ),
    _AsciiCue(
        words=frozenset(
            """wife husband partner son daughter mother mom mum father dad brother friend sister boss girlfriend
            boyfriend therapist doctor psychiatrist counsellor counselor colleague coworker neighbour neighbor
            roommate flatmate cousin aunt uncle grandma grandmother grandpa grandfather manager teacher ex fiance
            fiancee child kid nephew niece soeur frere ami amie mere pere copain copine mari femme schwester bruder
            freund freundin mutter vater mann frau hermana hermano amigo amiga madre padre novio novia esposo
            esposa""".split()
        )
    ),
    _AsciiCue(
        words=frozenset("hi hello hey dear thanks thank sincerely regards bonjour salut hola hallo ciao".split())
    ),
    _AsciiCue(words=frozenset("m am this est suis soy bin".split())),
)
_CAPITALISED_AFTER_SPACE = regex.compile(r"\s[A-Z](?:[a-z]|['’])")  # _CAP's start, in ASCII letters


def _patterns_for(text: str) -> list[Any]:
    """The name patterns that can match ``text`` (all of them for a text that is not ASCII)."""
    words = ascii_words(text)
    if words is None:
        return [pattern for pattern, _strong in _NAME_PATTERNS]
    lower = text.lower()
    capitalised = _CAPITALISED_AFTER_SPACE.search(text) is not None
    return [
        pattern
        for (pattern, _strong), cue in zip(_NAME_PATTERNS, _ASCII_CUES, strict=True)
        if (capitalised or not cue.needs_capital)
        and ((cue.strings and holds_any(lower, cue.strings)) or not cue.words.isdisjoint(words))
    ]


def cued_names(texts: Iterable[str]) -> set[str]:
    """Names introduced by a cue anywhere in ``texts`` (the name, and each word of a two-word name)."""
    names: set[str] = set()
    for text in texts:
        for pattern in _patterns_for(text):
            for match in pattern.finditer(text):
                words = _name_words(match.group("n"))
                # a name stops at the first word that is not one ("anna and i ...")
                first = match.group("n").split()
                if not words or first[0].lower() in NOT_NAMES:
                    continue
                kept = [w for w in first[: len(first)] if w.lower() not in NOT_NAMES]
                if len(first) > 1 and first[1].lower() in NOT_NAMES:
                    kept = first[:1]
                names.add(" ".join(kept))
                names.update(w for w in kept if len(w) > 1)
    return names


def name_spans(text: str, names: Iterable[str]) -> Iterator[Span]:
    """Every occurrence of ``names`` in ``text``: as written when found capitalised, in any case when
    found in lower case (it was written so once); CJK and Arabic names without word boundaries."""
    for name in sorted(names, key=len, reverse=True):
        flags = regex.IGNORECASE if name == name.lower() else 0
        if regex.search(r"[\p{Han}\p{Katakana}\p{Arabic}]", name):
            pattern = regex.compile(regex.escape(name))
        else:
            pattern = regex.compile(rf"(?<![\w\[]){regex.escape(name)}(?!\w)", flags)
        for match in pattern.finditer(text):
            yield Span("NAME", match.start(), match.end(), match.group(0))


_PLATFORMS = (
    r"insta(?:gram)?|ig|snap(?:chat)?|tik ?tok|twitter|discord|telegram|reddit|kik|skype|wechat|weixin|"
    r"line id|vk|threads|facebook|fb|微信号?|微博|ツイッター"
)
# The start of HANDLE_PATTERNS[1] alone: without it (or an "@") no handle is found.
PLATFORM_CUE = regex.compile(rf"(?i:\b(?:{_PLATFORMS}))(?![\w])")
# PLATFORM_CUE in an ASCII text holds one of these letter runs (textfold.ascii_words): "tik tok" is "tik"
_PLATFORM_WORDS = frozenset(
    "insta instagram ig snap snapchat tik tiktok twitter discord telegram reddit kik skype wechat weixin line vk "
    "threads facebook fb".split()
)
HANDLE_PATTERNS = (
    regex.compile(r"(?<![\w@.])@[A-Za-z0-9_](?:[A-Za-z0-9_.]{0,28}[A-Za-z0-9_])?"),
    # a platform, then ":" / "is" / "handle" / an @ ("insta" alone is also the start of "instance")
    regex.compile(
        rf"(?i:\b(?:{_PLATFORMS}))(?![\w])(?i:\s+(?:handle|username|user name|id|account|name))?"
        r"(?:\s*[:：]\s*|(?i:\s+is\s+)|\s+(?=@))(?P<h>@?[A-Za-z0-9_][A-Za-z0-9_.#-]{2,31})"
    ),
    regex.compile(r"(?<![\w/])/?u/[A-Za-z0-9_-]{3,20}"),
)
PROFILE_URL = regex.compile(
    r"(?i)(?:https?://)?(?:www\.|m\.|[a-z]{2}\.)?(?:facebook|fb|instagram|twitter|x|tiktok|linkedin|reddit|github|"
    r"youtube|snapchat|vk|weibo|threads|pinterest|tumblr|medium|twitch|mastodon\.social|bsky)\.(?:com|net|app|ru|cn)"
    r"/[^\s<>\"')\]]+|(?i)\bt\.me/[A-Za-z0-9_]+"
)


# Presidio's e-mail pattern needs a word boundary, which CJK and Arabic letters glued to an
# address do not give ("メールはhanako@example.jpです"): an ASCII address bounded by non-ASCII.
GLUED_EMAIL = regex.compile(
    r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![A-Za-z])"
)


def handle_spans(text: str) -> Iterator[Span]:
    if "@" in text:
        for match in GLUED_EMAIL.finditer(text):
            yield Span("EMAIL", match.start(), match.end(), match.group(0))
    for pattern in HANDLE_PATTERNS:
        for match in pattern.finditer(text):
            group = "h" if "h" in pattern.groupindex else 0
            value = match.group(group)
            if value.lstrip("@").lower() in NOT_NAMES or value.lstrip("@").isdigit():
                continue
            yield Span("HANDLE", match.start(group), match.end(group), value)
    for match in PROFILE_URL.finditer(text):
        yield Span("PROFILE_URL", match.start(), match.end(), match.group(0).rstrip(".,;:!?"))


# street types that are also common words ("all 3 did way better") count only capitalised
_STREET_EN = r"street|st|road|rd|avenue|ave|lane|ln|boulevard|blvd|crescent|terrace|sq|highway|hwy|parkway|pkwy|mews"
_STREET_EN_CAPITALISED = r"Drive|Dr|Way|Court|Ct|Place|Pl|Close|Square|Row|Gardens|Grove|Hill|Walk|Circle|Cir"
_WORDS = r"(?:[\p{L}\p{M}'’.-]+\s+){1,4}"
_UNIT = r"(?:,?\s+(?i:apt|flat|unit|suite)\.?\s*\w+)?"
ADDRESS_PATTERNS = (
    regex.compile(rf"\b\d{{1,5}}[a-zA-Z]?,?\s+{_WORDS}(?:(?i:{_STREET_EN})|{_STREET_EN_CAPITALISED})\b\.?{_UNIT}"),
    # after "live at", "address", ... any street type in any case ("3 rowan close")
    regex.compile(
        rf"(?i:\b(?:live at|living at|lives at|address(?: is)?|flat is at|house is at|moved to|staying at|at))\s+"
        rf"(?P<a>\d{{1,5}}[a-zA-Z]?,?\s+{_WORDS}(?i:{_STREET_EN}|{_STREET_EN_CAPITALISED})\b\.?{_UNIT})"
    ),
    regex.compile(
        r"(?i)\b\d{1,5}(?:\s?(?:bis|ter))?,?\s+(?:rue|avenue|av\.|boulevard|bd|chemin|place|allée|allee|impasse|quai|"
        r"route|cours)\s+(?:(?:de|du|des|la|le|l['’]|d['’])\s*)*[\p{L}\p{M}'’-]+(?:\s+[\p{Lu}][\p{L}\p{M}'’-]+){0,3}"
    ),
    regex.compile(
        r"(?i)\b(?:\p{Lu}[\p{L}\p{M}]+\s+)?[\p{L}\p{M}-]*(?:straße|strasse|str\.|weg|gasse|allee|platz|ring|damm|ufer|laan|straat|gracht|plein)"
        r"\s+\d{1,4}\s?[a-z]?\b"
    ),
    regex.compile(
        r"(?i)\b(?:calle|c/|avenida|avda\.?|plaza|paseo|camino|via|viale|piazza|corso|rua|travessa)\s+"
        r"(?:(?:de|del|la|las|los|da|do|dos|di|della)\s+)*[\p{L}\p{M}'’-]+(?:\s+[\p{L}\p{M}'’-]+){0,2},?\s*(?:n[º°o]\.?\s*)?\d{1,4}"
    ),
    regex.compile(
        r"(?i)(?:\b(?:ул\.?|улица|пр\.|просп\.?|проспект|пер\.?|переулок|бульвар|б-р|ш\.|шоссе|наб\.)\s*"
        r"[\p{Cyrillic}\d.-]+(?:\s+[\p{Cyrillic}]+){0,2},?\s*(?:д\.?|дом)?\s*\d{1,4}[\p{Cyrillic}]?"
        r"(?:,?\s*(?:кв\.?|квартира|корп\.?)\s*\d{1,4})*)"
    ),
    regex.compile(
        r"[\p{Han}]{0,12}[\p{Han}\d]{1,8}(?:路|街|大道|大街|巷|胡同|道)\d+号(?:[\p{Han}\d-]{0,12}(?:室|楼|单元))?"
    ),
    regex.compile(
        r"[\p{Han}]{1,4}(?:都|道|府|県)[\p{Han}\p{Katakana}\p{Hiragana}]{1,12}?(?:市|区|町|村)"
        r"[\p{Han}\p{Katakana}\p{Hiragana}\d０-９]*?[\d０-９]+(?:[-－−ー丁目番地号][\d０-９]*)+"
    ),
    regex.compile(r"(?:شارع|طريق|حي)\s+(?:[\p{Arabic}]+\s+){0,3}?[\p{Arabic}]+\s*[،,]?\s*(?:رقم\s*)?[\d٠-٩]+"),
    regex.compile(r"[\d٠-٩]+\s*[،,]?\s*(?:شارع|طريق)\s+(?:[\p{Arabic}]+\s*){1,3}"),
)
_US_STATES = (
    "AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR "
    "PA RI SC SD TN TX UT VT VA WA WV WI WY DC"
).split()
POSTCODE_PATTERNS = (
    regex.compile(rf"\b(?:{'|'.join(_US_STATES)}),?\s+\d{{5}}(?:-\d{{4}})?\b"),
    regex.compile(
        r"(?i:\b(?:zip|zip code|postcode|post code|postal code|code postal|индекс))[:\s]+"
        r"(?=[A-Za-z0-9 -]*\d)[A-Za-z0-9][A-Za-z0-9 -]{2,8}[A-Za-z0-9]\b|\b(?:PLZ|CP)[:\s]+\d{4,5}\b"
    ),
    regex.compile(r"\b\d{4,5}\s+\p{Lu}[\p{Ll}\p{M}]{2,}"),  # 75008 Paris, 10115 Berlin, 1010 Wien
    regex.compile(r"\b\d{4}\s?[A-Z]{2}\s+\p{Lu}[\p{Ll}]{2,}"),  # 1012 AB Amsterdam
    regex.compile(r"〒\s*[\d０-９]{3}[-－ー]?[\d０-９]{4}|郵便番号[:：]?\s*[\d０-９]{3}[-－ー]?[\d０-９]{4}"),
    regex.compile(r"(?:邮编|邮政编码)[:：]?\s*\d{6}"),
    regex.compile(r"\b\d{6},?\s+(?:г\.\s*)?\p{Lu}\p{Ll}+"),  # 119019, Москва
)


def place_spans(text: str) -> Iterator[Span]:
    for pattern in ADDRESS_PATTERNS:
        yield from _found(text, pattern, "ADDRESS", "a" if "a" in pattern.groupindex else 0)
    for pattern in POSTCODE_PATTERNS:
        yield from _found(text, pattern, "POSTCODE", strip=", ")


_MONTH_NAMES = (
    "january february march april may june july august september october november december jan feb mar apr jun "
    "jul aug sep sept oct nov dec janvier février fevrier mars avril mai juin juillet août aout septembre octobre "
    "novembre décembre decembre januar februar märz maerz juni juli oktober dezember enero febrero marzo abril mayo "
    "junio julio agosto septiembre octubre noviembre diciembre января февраля марта апреля мая июня июля августа "
    "сентября октября ноября декабря"
).split()
_MONTHS = "|".join(sorted(set(_MONTH_NAMES), key=len, reverse=True))  # "mars" before "mar"
_DATE = (
    rf"(?:\d{{1,2}}(?:st|nd|rd|th|er)?\.?\s*(?:of\s+)?(?:{_MONTHS})\.?,?\s*(?:\d{{4}}|'\d\d)?(?:\s*г\.?)?"
    rf"|(?:{_MONTHS})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s*(?:\d{{4}})?"
    r"|\d{1,4}[./\-]\d{1,2}[./\-]\d{2,4}|\d{4}\s*年\s*\d{1,2}\s*月(?:\s*\d{1,2}\s*日)?"
    rf"|(?:in\s+)?(?:{_MONTHS})?\s*(?:19|20)\d\d)"
)
_BIRTH_CUES = (
    r"born(?:\s+on)?|date of birth|birth ?date|d\.?o\.?b\.?|birthday(?:\s+is)?|né(?:e)? le|née? en|date de naissance|"
    r"geboren(?:\s+am)?|geburtsdatum|fecha de nacimiento|nac[ií] el|nacid[oa] el|data di nascita|nato il|nata il|"
    r"дата рождения|родил(?:ся|ась)|出生日期|生日是?|生年月日|誕生日は?"
)
DOB_PATTERNS = (
    regex.compile(rf"(?i)(?:{_BIRTH_CUES})\s*(?:is|was|:|：|-)?\s*(?P<d>{_DATE})"),
    regex.compile(r"(?P<d>\d{4}\s*年\s*\d{1,2}\s*月\s*\d{1,2}\s*日)\s*(?:出生|生まれ|生)"),
)


def dob_spans(text: str) -> Iterator[Span]:
    for pattern in DOB_PATTERNS:
        yield from (s for s in _found(text, pattern, "DOB", "d", " ,.") if any(c.isdigit() for c in s.value))


_ID_CUES = (
    r"mrn|medical record(?: number| no\.?)?|patient (?:id|number|no\.?)|member (?:id|number)|account(?: number| no\.?)?|"
    r"policy(?: number| no\.?)|case(?: number| no\.?)|ref(?:erence)?(?: number| no\.?)?|student (?:id|number)|"
    r"employee (?:id|number)|passport(?: number| no\.?)?|licen[cs]e(?: number| no\.?)|insurance (?:id|number)|"
    r"numéro de sécurité sociale|versichertennummer|n[úu]mero de (?:afiliaci[óo]n|paciente)|номер (?:полиса|паспорта)|"
    r"полис|паспорт|снилс|身份证号?码?|病历号|保険証番号|カルテ番号|"
    # an id a checksum rejects (a typo, HMRC's example prefix QQ) is still written after its name
    r"ni(?: number| no\.?)?|nino|national insurance(?: number| no\.?)?|nhs(?: number| no\.?)|ssn|"
    r"social security(?: number| no\.?)?|tax id|dni|nir|iban"
)
ID_PATTERNS = (
    regex.compile(rf"(?i)(?<!\w)(?:{_ID_CUES})\s*(?:is|was|:|：|#|№)?\s*(?P<v>[A-Z0-9][A-Z0-9 -]{{1,20}}[A-Z0-9])"),
    regex.compile(r"\b(?=(?:[A-Z-]*\d){4})(?=[A-Z0-9-]*[A-Z])[A-Z0-9][A-Z0-9-]{5,}\b"),
)
DIGIT_RUN = regex.compile(rf"(?<![\w.])\+?{_DIGIT}(?:{_DIGIT}|{_SEP}{{1,2}}(?={_DIGIT}))*")
# a date (d/m/y, y-m-d), a span of years or a time: not an id ("123-45-6789" is no date: its
# first part has three digits)
NOT_AN_ID = regex.compile(
    r"\d{1,2}[./\-]\d{1,2}[./\-](?:\d{2}|\d{4})|\d{4}[./\-]\d{1,2}[./\-]\d{1,2}"
    r"|(?:19|20)\d\d\s*[-–]\s*(?:19|20)?\d\d|\d{1,2}:\d\d(?::\d\d)?"
)


def digits_of(value: str) -> str:
    return "".join(str(int(c)) for c in value if c.isdecimal())


def is_public_number(value: str) -> bool:
    digits = digits_of(value)
    return digits in PUBLIC_NUMBERS or any(digits == code + n for n in PUBLIC_NUMBERS for code in ("1", "44", "61"))


def id_spans(text: str) -> Iterator[Span]:
    yield from (s for s in _found(text, ID_PATTERNS[0], "ID", "v") if sum(c.isdigit() for c in s.value) >= 2)
    yield from _found(text, ID_PATTERNS[1], "ID")
    for match in DIGIT_RUN.finditer(text):
        value = match.group(0).rstrip(" -.")
        if len(digits_of(value)) >= 7 and not NOT_AN_ID.fullmatch(value.strip("()（） ")):
            yield Span("ID", match.start(), match.start() + len(value), value)


_ASCII_DIGIT = regex.compile(r"[0-9]")
_ANY_DIGIT = regex.compile(r"\d")  # the rules' \d (this module's Unicode tables, maybe newer than Python's)


def may_hold_identifier(text: str) -> bool:
    """False when no recognizer or rule can find anything in ``text``, said cheaply (most chat
    messages): every one needs a digit (phones, ids, addresses, postcodes, dates of birth), an "@"
    (e-mails, handles), a "/" (profile URLs, ``u/name``) or a platform's name (handles).
    Names given elsewhere (``find_spans(text, names)``) are not covered by this test.
    Keep it true to the rules: a new rule that needs none of these adds its cue here."""
    if "@" in text or "/" in text:
        return True
    words = ascii_words(text)
    if words is not None:  # ASCII but for typographic punctuation: its only digits are 0-9
        digit = _ASCII_DIGIT.search(text) is not None
    else:  # the rules test str.isdigit / isdecimal and regex's \d
        digit = any(map(str.isdigit, text)) or _ANY_DIGIT.search(text) is not None
    if digit:
        return True
    return (words is None or not _PLATFORM_WORDS.isdisjoint(words)) and PLATFORM_CUE.search(text) is not None


def rule_spans(text: str) -> list[Span]:
    """Every span our own rules find in ``text`` (names need :func:`cued_names` and :func:`name_spans`)."""
    return [*handle_spans(text), *place_spans(text), *dob_spans(text), *id_spans(text)]
