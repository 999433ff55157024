"""Writes ``deid_probes.jsonl``: our labelled de-identification probes (synthetic, seeded; no real person).

Each line: ``{"id", "locale", "messages": [...], "pii": [{"kind", "message", "value"}], "keep":
[{"kind", "message", "value"}]}``. ``pii`` must be redacted; ``keep`` (crisis lines, clinical terms,
doses, dates that are not birth dates, public web pages) must stay. Checksummed ids are made with
python-stdnum's check-digit functions; phone numbers are ``phonenumbers``' example numbers with
their last digits varied and kept only while valid. Regenerate with
``python -m tests.deid.make_probes`` (same seed, same file).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import phonenumbers
from stdnum import luhn, verhoeff
from stdnum.cn import ric
from stdnum.es import dni
from stdnum.fr import nir
from stdnum.gb import nhs
from stdnum.iso7064 import mod_97_10
from stdnum.jp import in_ as my_number

PROBES = Path(__file__).with_name("deid_probes.jsonl")
SEED = 20261127
PER_KIND = 16

Probe = dict[str, object]


def _digits(rng: random.Random, n: int, first: str = "123456789") -> str:
    return rng.choice(first) + "".join(rng.choice("0123456789") for _ in range(n - 1))


def _phone(rng: random.Random, region: str) -> str:
    example = phonenumbers.example_number_for_type(region, phonenumbers.PhoneNumberType.MOBILE)
    national = str(example.national_number)
    while True:
        candidate = national[:-3] + _digits(rng, 3, "0123456789")
        number = phonenumbers.parse(candidate, region)
        if phonenumbers.is_valid_number(number):
            return number  # type: ignore[return-value]


def _fmt(number: object, style: int) -> str:
    return phonenumbers.format_number(number, style)  # type: ignore[arg-type]


def phones(rng: random.Random) -> list[tuple[str, str, list[str]]]:
    """(locale, text, values): every spelling issue 35 found leaking, and ordinary ones."""
    intl, nat = phonenumbers.PhoneNumberFormat.INTERNATIONAL, phonenumbers.PhoneNumberFormat.NATIONAL
    us, gb, fr, de = (_phone(rng, r) for r in ("US", "GB", "FR", "DE"))
    jp, cn, ru, sa, in_ = (_phone(rng, r) for r in ("JP", "CN", "RU", "SA", "IN"))
    us2, gb2 = _phone(rng, "US"), _phone(rng, "GB")
    nbsp = _fmt(gb, nat).replace(" ", "\u00a0")
    dash = _fmt(us, nat).replace("-", "\u2013").replace(" ", "\u2013")
    wide = _fmt(jp, nat).translate(str.maketrans("0123456789-", "０１２３４５６７８９－"))
    return [
        ("en-US", f"you can reach me at {_fmt(us, nat)} after work", [_fmt(us, nat)]),
        ("en-US", f"my cell is {dash}", [dash]),
        ("en-US", f"numbers: {_fmt(us, nat)} {_fmt(us2, nat)}", [_fmt(us, nat), _fmt(us2, nat)]),
        ("en-GB", f"ring me on {nbsp} tonight", [nbsp]),
        ("en-GB", f"mine is {_fmt(gb, nat)} {_fmt(gb2, nat)} either works", [_fmt(gb, nat), _fmt(gb2, nat)]),
        ("en-GB", f"text {_fmt(gb, intl)} please", [_fmt(gb, intl)]),
        ("fr-FR", f"mon portable : {_fmt(fr, nat)}", [_fmt(fr, nat)]),
        ("fr-FR", f"appelle-moi au {_fmt(fr, nat).replace(' ', '.')}", [_fmt(fr, nat).replace(" ", ".")]),
        ("de-DE", f"meine Handynummer ist {_fmt(de, intl)}", [_fmt(de, intl)]),
        ("ja-JP", f"電話番号は{wide}です", [wide]),
        ("ja-JP", f"携帯：{_fmt(jp, nat)}", [_fmt(jp, nat)]),
        ("zh-CN", f"我的手机号是{_fmt(cn, nat).replace(' ', '')}", [_fmt(cn, nat).replace(" ", "")]),
        ("zh-CN", f"电话 {_fmt(cn, intl)}", [_fmt(cn, intl)]),
        ("ru-RU", f"мой номер {_fmt(ru, nat)}", [_fmt(ru, nat)]),
        ("ar-SA", f"رقمي {_fmt(sa, intl)}", [_fmt(sa, intl)]),
        ("en-IN", f"whatsapp me on {_fmt(in_, intl)}", [_fmt(in_, intl)]),
    ]


def _luhn_number(rng: random.Random, prefix: str, length: int) -> str:
    body = prefix + _digits(rng, length - len(prefix) - 1, "0123456789")
    return body + luhn.calc_check_digit(body)


def _iban(rng: random.Random, country: str, bban: str) -> str:
    check = mod_97_10.calc_check_digits(bban + country)
    return country + check + bban


def _grouped(value: str, size: int = 4, sep: str = " ") -> str:
    return sep.join(value[i : i + size] for i in range(0, len(value), size))


def checksummed(rng: random.Random) -> dict[str, list[tuple[str, str, list[str]]]]:
    cards = [_luhn_number(rng, p, n) for p, n in (("4", 16), ("51", 16), ("37", 15), ("6011", 16))]
    card_texts = [
        ("en-US", "my card is {}", _grouped(cards[0])),
        ("en-US", "charged to {} again", _grouped(cards[1], sep="-")),
        ("en-GB", "card number {} expires soon", cards[2]),
        ("en-GB", "used {} at the pharmacy", _grouped(cards[3], sep="\u00a0")),
        ("fr-FR", "ma carte {}", _grouped(cards[0])),
        ("de-DE", "Kartennummer {}", cards[1]),
    ]
    ibans = [
        _iban(rng, "GB", "WEST" + _digits(rng, 14, "0123456789")),
        _iban(rng, "DE", _digits(rng, 18, "0123456789")),
        _iban(rng, "NL", "ABNA" + _digits(rng, 10, "0123456789")),
    ]
    iban_texts = [
        ("en-GB", "my IBAN is {}", _grouped(ibans[0])),
        ("en-GB", "pay into {} please", ibans[0].lower()),
        ("de-DE", "IBAN: {}", _grouped(ibans[1])),
        ("de-DE", "überweise an {}", ibans[1]),
        ("en-US", "account {} for the refund", _grouped(ibans[2])),
        ("fr-FR", "mon iban {}", _grouped(ibans[2]).lower()),
    ]
    ssn = [f"{rng.randint(101, 665)}-{rng.randint(10, 99)}-{rng.randint(1000, 9999)}" for _ in range(4)]
    letters = "ABCEGHJKLMNPRSTWXYZ"
    ninos = [f"{rng.choice('ABCEHJKLMNPRSTWXYZ')}{rng.choice(letters)} {rng.randint(10, 99)} {rng.randint(10, 99)} {rng.randint(10, 99)} {rng.choice('ABCD')}" for _ in range(4)]  # fmt: skip
    nhs_numbers = []
    while len(nhs_numbers) < 4:
        body = _digits(rng, 9)
        valid = [body + d for d in "0123456789" if nhs.is_valid(body + d)]  # mod 11: no digit fits 1 in 11
        if valid:
            nhs_numbers.append(f"{valid[0][:3]} {valid[0][3:6]} {valid[0][6:]}")
    nirs = []
    for _ in range(4):
        body = f"{rng.choice('12')}{rng.randint(60, 99)}{rng.randint(1, 12):02d}{rng.randint(1, 95):02d}{rng.randint(1, 999):03d}{rng.randint(1, 999):03d}"
        nirs.append(body + nir.calc_check_digits(body))
    dnis = [(b := _digits(rng, 8)) + dni.calc_check_digit(b) for _ in range(4)]
    rics = []
    for _ in range(4):
        body = f"110105{rng.randint(1960, 2004)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}{rng.randint(100, 999)}"
        rics.append(body + ric.calc_check_digit(body))
    my_numbers = [(b := _digits(rng, 11)) + my_number.calc_check_digit(b) for _ in range(4)]
    aadhaars = [(b := _digits(rng, 11, "23456789")) + verhoeff.calc_check_digit(b) for _ in range(4)]
    nir_spaced = [f"{n[0]} {n[1:3]} {n[3:5]} {n[5:7]} {n[7:10]} {n[10:13]} {n[13:]}" for n in nirs]
    return {
        "credit_card": [(loc, t.format(v), [v]) for loc, t, v in card_texts],
        "iban": [(loc, t.format(v), [v]) for loc, t, v in iban_texts],
        "us_ssn": [
            ("en-US", f"my SSN is {ssn[0]}", [ssn[0]]),
            ("en-US", f"ssn {ssn[1].replace('-', ' ')}", [ssn[1].replace("-", " ")]),
            ("en-US", f"social security number: {ssn[2]}", [ssn[2]]),
            ("en-US", f"it's {ssn[3].replace('-', '')} on the form", [ssn[3].replace("-", "")]),
        ],  # fmt: skip
        "uk_nino": [
            ("en-GB", f"my NI number is {ninos[0]}", [ninos[0]]),
            ("en-GB", f"national insurance {ninos[1].lower()}", [ninos[1].lower()]),
            ("en-GB", f"NINO: {ninos[2].replace(' ', '')}", [ninos[2].replace(" ", "")]),
            ("en-GB", f"ni no {ninos[3]} for the claim", [ninos[3]]),
        ],  # fmt: skip
        "nhs_number": [("en-GB", f"NHS number {n}", [n]) for n in nhs_numbers[:2]]
        + [("en-GB", f"my nhs no is {n.replace(' ', '')}", [n.replace(" ", "")]) for n in nhs_numbers[2:]],
        "fr_nir": [("fr-FR", f"numéro de sécu {n}", [n]) for n in nir_spaced[:2]]
        + [("fr-FR", f"mon NIR est {n}", [n]) for n in nirs[2:]],
        "es_dni": [("es-ES", f"mi DNI es {d}", [d]) for d in dnis[:2]]
        + [("es-ES", f"dni {d.lower()}", [d.lower()]) for d in dnis[2:]],
        "cn_resident_id": [("zh-CN", f"身份证号{r}", [r]) for r in rics[:2]]
        + [("zh-CN", f"我的身份证 {r} 丢了", [r]) for r in rics[2:]],
        "jp_my_number": [("ja-JP", f"マイナンバーは{_grouped(n)}です", [_grouped(n)]) for n in my_numbers[:2]]
        + [("ja-JP", f"個人番号 {n}", [n]) for n in my_numbers[2:]],
        "in_aadhaar": [("en-IN", f"my aadhaar is {_grouped(a)}", [_grouped(a)]) for a in aadhaars[:2]]
        + [("en-IN", f"Aadhaar no. {a}", [a]) for a in aadhaars[2:]],
    }


NAMES = {
    "en-US": ["Anna Smith", "Marcus", "Priya Raman", "Chloe"],
    "en-GB": ["Siobhán", "Tom Baker", "Renée", "Oliver"],
    "fr-FR": ["Zoë", "Élodie Martin", "Jérôme"],
    "de-DE": ["Jürgen", "Björn Müller", "Lena"],
    "es-ES": ["José Álvarez", "Lucía", "Íñigo"],
    "ru-RU": ["Анна", "Дмитрий Иванов", "Ольга"],
    "zh-CN": ["王小明", "李娜", "张伟"],
    "ja-JP": ["田中花子", "佐藤健"],
    "ar-SA": ["فاطمة", "محمد العلي", "ليلى"],
}
NAME_TEMPLATES = {
    "en-US": ["my name is {}", "my name is {lower} and i feel lost", "call me {lower}", "my sister {} keeps checking on me",
              "Hi {}, thanks for listening", "I'm {}, nice to meet you", "my therapist Dr. {} said to write things down"],
    "en-GB": ["my best friend {} doesn't know", "i'm called {lower}", "Dear {}, sorry for the long message", "my boyfriend, {}, left"],
    "fr-FR": ["je m'appelle {}", "ma sœur {} m'a aidée", "Bonjour {}, merci"],
    "de-DE": ["ich heiße {}", "meine Schwester {} weiß es nicht", "Hallo {}, danke"],
    "es-ES": ["me llamo {}", "mi hermana {} no lo sabe", "Hola {}, gracias"],
    "ru-RU": ["меня зовут {}", "моя подруга {} переживает", "Привет {}, спасибо"],
    "zh-CN": ["我叫{}，最近很难受", "我的名字是{}"],
    "ja-JP": ["私の名前は{}です", "名前は{}です"],
    "ar-SA": ["اسمي {} وأشعر بالحزن", "اسمي {}"],
}  # fmt: skip


def names(rng: random.Random) -> list[Probe]:
    probes: list[Probe] = []
    for locale, pool in NAMES.items():
        for template in NAME_TEMPLATES[locale]:
            name = rng.choice(pool)
            lower = "{lower}" in template
            shown = name.lower() if lower else name
            text = template.replace("{lower}", "{}").format(shown)
            first = shown.split()[0]
            later = {"zh-CN": f"{first}不想活了", "ja-JP": f"{first}はつらい", "ar-SA": f"{first} متعبة"}.get(
                locale, f"{first} is scared to tell anyone"
            )
            probes.append(_probe(locale, [text, later], [("name", 0, shown), ("name", 1, first)]))
    return probes


ADDRESSES = [
    ("en-US", "i live at {}", ["42 elm street", "1600 maple ave", "7 Ocean Drive apt 4"]),
    ("en-GB", "my flat is at {}", ["221b Baker St", "14 Station Road", "3 rowan close"]),
    ("fr-FR", "j'habite au {}", ["12 rue de la Paix", "5 avenue Victor Hugo", "8 bis rue des Lilas"]),
    ("de-DE", "ich wohne in der {}", ["Hauptstraße 5", "Berliner Str. 12a", "Lindenweg 7"]),
    ("es-ES", "vivo en {}", ["Calle Mayor 12", "Avenida de la Constitución 44", "Plaza de España, 3"]),
    ("ru-RU", "я живу: {}", ["ул. Ленина, д. 5, кв. 12", "проспект Мира 101", "улица Пушкина, дом 10"]),
    ("zh-CN", "我住在{}", ["北京市朝阳区建国路88号", "上海市徐汇区淮海中路1200号", "广州市天河区体育西路103号"]),
    ("ja-JP", "住所は{}です", ["東京都新宿区西新宿2-8-1", "大阪府大阪市北区梅田3-1-1"]),
    ("ar-SA", "أسكن في {}", ["شارع الملك فهد ١٢", "شارع التحلية 45"]),
]
POSTCODES = [
    ("en-GB", "postcode {}", ["SW1A 1AA", "m1 1ae", "EH1 2NG"]),
    ("en-US", "Springfield, {} is home", ["IL 62704", "TX 75001"]),
    ("fr-FR", "j'habite {}", ["75008 Paris", "69002 Lyon"]),
    ("de-DE", "wohne in {}", ["10115 Berlin", "80331 München"]),
    ("en-US", "zip code {}", ["90210", "10001-1234"]),
    ("ja-JP", "{} 東京都", ["〒160-0023", "〒100-0001"]),
    ("zh-CN", "{} 北京", ["邮编100020", "邮编200031"]),
    ("en-GB", "Ottawa {}", ["K1A 0B1"]),
    ("ru-RU", "адрес: {}", ["119019, Москва"]),
]
DOBS = [
    ("en-US", "I was born on {}", ["3 March 1990", "March 3, 1990"]),
    ("en-GB", "DOB: {}", ["03/04/1990", "14.07.1985"]),
    ("en-US", "date of birth {}", ["1990-03-04", "12/25/1979"]),
    ("en-US", "my birthday is {}", ["June 5th 2001"]),
    ("fr-FR", "je suis né le {}", ["12 mars 1985", "1er avril 1999"]),
    ("de-DE", "geboren am {}", ["12.03.1985", "3. Mai 1977"]),
    ("es-ES", "fecha de nacimiento: {}", ["04/05/1992"]),
    ("ru-RU", "дата рождения: {}", ["12 марта 1985 г.", "01.02.1993"]),
    ("zh-CN", "{}出生", ["1990年3月4日"]),
    ("ja-JP", "生年月日：{}", ["1988年11月2日"]),
]
HANDLES = [
    ("en-US", "follow me {}", ["@anna_k92", "@sad.boi_03"]),
    ("en-US", "my insta is {}", ["anna.k92", "marcus_draws"]),
    ("en-GB", "add me on snapchat: {}", ["tommyb_99"]),
    ("en-US", "posted it on {} last night", ["u/throwaway_anna"]),
    ("fr-FR", "mon compte tiktok {}", ["@zoe.dessine"]),
    ("de-DE", "discord: {}", ["juergen#4421"]),
    ("zh-CN", "微信号：{}", ["wxid_xiaoming88"]),
    ("ru-RU", "мой telegram {}", ["@anna_spb"]),
    ("es-ES", "instagram: {}", ["lucia.fotos"]),
]
URLS = [
    ("en-US", "my page {}", ["https://instagram.com/anna.k92", "https://www.facebook.com/anna.smith.3"]),
    ("en-GB", "see {}", ["linkedin.com/in/tom-baker-12345", "https://twitter.com/tommyb_99"]),
    ("en-US", "videos at {}", ["https://www.tiktok.com/@anna_k92"]),
    ("ru-RU", "моя страница {}", ["https://vk.com/id123456", "vk.com/anna_spb"]),
    ("zh-CN", "我的微博 {}", ["https://weibo.com/u/5566778899"]),
    ("en-US", "code is on {}", ["github.com/marcus-dev"]),
    ("fr-FR", "mon profil {}", ["https://x.com/zoe_dessine"]),
    ("en-GB", "reddit {}", ["https://www.reddit.com/user/throwaway_anna"]),
    ("ru-RU", "пиши {}", ["t.me/anna_spb"]),
]
EMAILS = [
    ("en-US", "email me at {}", ["anna.smith@example.com", "marcus+therapy@example.org"]),
    ("en-GB", "my work address {} is monitored", ["t.baker@nhs-example.co.uk"]),
    ("fr-FR", "mon mail : {}", ["zoe.martin@exemple.fr"]),
    ("de-DE", "schreib an {}", ["juergen.mueller@beispiel.de"]),
    ("ru-RU", "почта {}", ["anna.ivanova@example.ru"]),
    ("zh-CN", "邮箱{}", ["wangxm@example.cn"]),
    ("ja-JP", "メールは{}です", ["hanako.tanaka@example.jp"]),
    ("ar-SA", "بريدي {}", ["fatima.ali@example.sa"]),
]
IPS = [
    ("en-US", "my IP is {}", ["192.168.14.201", "10.0.0.77"]),
    ("en-GB", "logged in from {}", ["81.2.69.160", "2001:db8::8a2e:370:7334"]),
    ("de-DE", "IP-Adresse {}", ["172.16.254.3"]),
]
RECORDS = [
    ("en-US", "my MRN is {}", ["00482913", "A-774120"]),
    ("en-GB", "account number {}", ["12-3456-78", "44556677"]),
    ("en-US", "member ID: {}", ["XZ4471923", "WX 8812 4471"]),
    ("en-GB", "passport number {}", ["533380006"]),
    ("en-US", "policy no. {} covers it", ["88-1244-2"]),
    ("zh-CN", "病历号{}", ["A2023-88812"]),
    ("ru-RU", "номер полиса {}", ["7755 4412 9981 0034"]),
    ("ja-JP", "保険証番号 {}", ["12345678"]),
]
KEEP = [
    ("en-US", "please call or text 988 right now", ["988"]),
    ("en-GB", "you can ring Samaritans on 116 123, any time", ["116 123"]),
    ("en-US", "text HOME to 741741 to reach the Crisis Text Line", ["741741"]),
    ("en-GB", "call NHS 111 or 999 in an emergency", ["111", "999"]),
    ("en-US", "if you are in danger call 911", ["911"]),
    ("de-DE", "im Notfall 112 anrufen", ["112"]),
    ("en-US", "the old lifeline number 1-800-273-8255 still works", ["1-800-273-8255"]),
    ("en-GB", "Childline is 0800 1111 for under-19s", ["0800 1111"]),
    ("en-GB", "text SHOUT to 85258", ["85258"]),
    ("en-US", "my PHQ-9 score was 18 and GAD-7 was 15", ["PHQ-9", "18", "GAD-7", "15"]),
    ("en-US", "they started me on sertraline 50 mg, going up to 100 mg", ["sertraline 50 mg", "100 mg"]),
    ("en-GB", "diagnosis ICD-10 F32.1, moderate depressive episode", ["ICD-10 F32.1"]),
    ("en-US", "DSM-5 criteria for PTSD were met after COVID-19", ["DSM-5", "PTSD", "COVID-19"]),
    ("en-GB", "lithium 400 mg twice a day and vitamin B12", ["lithium 400 mg", "B12"]),
    ("en-US", "my appointment is on 12 March 2024 at 10:30", ["12 March 2024", "10:30"]),
    ("en-GB", "it started on 03/04/2023 after the breakup", ["03/04/2023"]),
    ("en-US", "between 2019-2021 I barely slept", ["2019-2021"]),
    ("en-US", "I slept 6 hours and walked 10,000 steps", ["6 hours", "10,000 steps"]),
    ("en-US", "the 988 Lifeline site https://988lifeline.org has a chat", ["https://988lifeline.org"]),
    ("en-GB", "see www.nhs.uk/mental-health for self-referral", ["www.nhs.uk/mental-health"]),
    ("en-US", "I'm Tired of everything", ["Tired"]),
    ("en-US", "my therapist said CBT might help with my OCD", ["therapist said", "CBT", "OCD"]),
    ("en-US", "call me back when you can", ["back"]),
    ("en-GB", "Hi there, I feel hopeless", ["there", "hopeless"]),
    ("fr-FR", "appelle le 3114, le numéro national de prévention du suicide", ["3114"]),
    ("fr-FR", "rendez-vous le 12 mars 2024 chez le psychiatre", ["12 mars 2024"]),
    ("de-DE", "TelefonSeelsorge 0800 111 0 111, rund um die Uhr", ["0800 111 0 111"]),
    ("de-DE", "seit dem 01.02.2024 nehme ich 20 mg Fluoxetin", ["01.02.2024", "20 mg Fluoxetin"]),
    ("es-ES", "llama al 024, línea de atención a la conducta suicida", ["024"]),
    ("es-ES", "tomo 10 mg de escitalopram desde hace 3 semanas", ["10 mg", "3 semanas"]),
    ("ru-RU", "детский телефон доверия 8-800-2000-122", ["8-800-2000-122"]),
    ("ru-RU", "принимаю 50 мг сертралина с 5 марта", ["50 мг", "5 марта"]),
    ("zh-CN", "心理援助热线 400-161-9995", ["400-161-9995"]),
    ("zh-CN", "医生说是抑郁症，每天服用舍曲林50毫克", ["抑郁症", "50毫克"]),
    ("ja-JP", "こころの健康相談統一ダイヤル 0570-064-556", ["0570-064-556"]),
    ("ja-JP", "2024年5月6日に病院に行った", ["2024年5月6日"]),
    ("ar-SA", "أتناول ٢٠ ملغ من الدواء منذ أسبوعين", ["٢٠ ملغ"]),
    ("ar-SA", "في حالة الطوارئ اتصل بالرقم 911", ["911"]),
    ("en-IN", "Tele-MANAS helpline 14416 is free", ["14416"]),
    ("en-US", "Emergency: 911. My name is Anna.", ["911"]),
]


def _probe(
    locale: str, messages: list[str], pii: list[tuple[str, int, str]], keep: list[tuple[int, str]] = ()
) -> Probe:  # type: ignore[assignment]
    for _, index, value in pii:
        assert value in messages[index], (value, messages[index])
    return {
        "locale": locale,
        "messages": messages,
        "pii": [{"kind": k, "message": i, "value": v} for k, i, v in pii],
        "keep": [{"message": i, "value": v} for i, v in keep],
    }


def _filled(kind: str, rows: list[tuple[str, str, list[str]]], rng: random.Random) -> list[Probe]:
    """``PER_KIND`` probes of ``kind``: every (template, value) once, then repeats in new contexts."""
    contexts = ["{}", "Sorry to dump this. {}", "{} — I don't know why I'm telling you.", "ok so {}. anyway"]
    pairs = [(loc, t, v) for loc, t, values in rows for v in values]
    probes = []
    for n in range(max(PER_KIND, len(pairs))):
        locale, template, value = pairs[n % len(pairs)]
        text = rng.choice(contexts) if n >= len(pairs) else "{}"
        text = text.format(template.format(value))
        probes.append(_probe(locale, [text], [(kind, 0, value)]))
    return probes


def build() -> list[Probe]:
    rng = random.Random(SEED)
    probes: list[Probe] = []
    probes += names(rng)
    for kind, rows in (
        ("email", EMAILS), ("street_address", ADDRESSES), ("postcode", POSTCODES), ("date_of_birth", DOBS),
        ("social_handle", HANDLES), ("profile_url", URLS), ("ip_address", IPS), ("record_number", RECORDS),
    ):  # fmt: skip
        probes += _filled(kind, rows, rng)
    for _ in range(2):  # two sets of values: 8 per national id, 12 cards and IBANs
        for kind, rows in checksummed(rng).items():
            probes += [_probe(loc, [text], [(kind, 0, v) for v in values]) for loc, text, values in rows]
    probes += [_probe(loc, [text], [("phone", 0, v) for v in values]) for loc, text, values in phones(rng)]
    for locale, text, values in KEEP:
        pii = [("name", 0, "Anna")] if "My name is Anna" in text else []
        probes.append(_probe(locale, [text], pii, [(0, v) for v in values]))
    for number, probe in enumerate(probes, 1):
        probe["id"] = f"p{number:04d}"
    return probes


def main() -> None:
    with PROBES.open("w", encoding="utf-8") as out:
        for probe in build():
            out.write(json.dumps(probe, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
