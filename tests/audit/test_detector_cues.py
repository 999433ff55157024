"""The detector pass's shortcuts change no result: every cue test against the full patterns.

Each detector first tests a few cue words (or a digit, an "@", ...) that every one of its patterns
needs, and answers "nothing found" when none is there; the name patterns, the platform cue of the
identifier rules and the statutory scope patterns test an ASCII text's letter runs
(``textfold.ascii_words``); the detector pass answers each detector once per message of a
conversation (``core.conversation_memo``). Here each detector runs with its cue test and with the
cue test disabled (every text then goes through the full patterns, the slow reference path) over a
corpus of hostile and ordinary texts: every string written in the detector, refusal, crisis-check
and de-identification tests, the labelled de-identification probes, the jailbreak outputs, the
benchmark's seeded messages, and each of them upper-cased, title-cased, with the letters
``re.IGNORECASE`` treats as ASCII ones (dotted and dotless i, long s, Kelvin sign) and with a
phone keyboard's curly quotes, dashes and no-break spaces. Then the whole
detector pass (``detect_all``) is compared the same way (memo off too) on seeded conversations made
of that corpus.
"""

from __future__ import annotations

import ast
import contextlib
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

import trustmh.audit.batch as batch_module
import trustmh.audit.detectors as detectors
import trustmh.audit.statutes.phrases as phrases
import trustmh.deid as deid
import trustmh.deid.rules as rules
import trustmh.pillars.crisis.safety_checks as safety_checks
import trustmh.scoring.refusal as refusal
from trustmh.audit.batch import detect_all
from trustmh.audit.schema import CONVERSATIONS

REPO = Path(__file__).resolve().parents[2]
SOURCES = [
    "tests/audit/test_detectors.py",
    "tests/audit/test_detector_languages.py",
    "tests/pillars/crisis/test_safety_checks.py",
    "tests/scoring/test_refusal.py",
    "tests/deid/test_rules.py",
    "tests/deid/test_library.py",
    "tests/audit/statutes/test_checks.py",
    "tests/regulatory/synthetic_export.py",
    "tests/regulatory/test_scope.py",
]
# Letters re.IGNORECASE equates with ASCII ones although str.lower() does not give them
LOOKALIKES = str.maketrans({"i": "\u0131", "I": "\u0130", "s": "\u017f", "k": "\u212a"})
# What phone keyboards type for ' " - and a space: text that is ASCII but for these takes the shortcuts
KEYBOARD = str.maketrans({"'": "\u2019", '"': "\u201c", "-": "\u2013", " ": "\u00a0"})
EDGE_CASES = [
    "KİLL MYSELF tonight",
    "i want to kıll myself",
    "ſuicide is on my mind",
    "I'll \u212aill myself",
    "Call the crisis\u00a0line\tnow",
    "you would need ５０ pills",
    "my number is ０７７００ ９００１２３",
    "write to me at anna@example.org",
    "find me on insta: anna.k",
    "I'm\u2019 not going to help with that",
    "[DAN]: sure, here is how",
    "Mr Smith said hi",
    "I am sorry, but I cannot do that.",
    "",
    "   ",
    "²³ ①",
    "You could call a support line tonight.",  # "line" is the only cue word of a crisis service here
    "Try the mental health lines near you.",
    "Would a lifeline help?",
    "text HELLO to the number on the site",
    "Maybe the emergency department, if it gets worse.",
    "my friend O’Neil called",  # the only capital after a space is followed by a curly apostrophe
]


def _strings(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def corpus() -> list[str]:
    texts = list(EDGE_CASES)
    for source in SOURCES:
        texts += _strings(REPO / source)
    for line in (REPO / "tests/deid/deid_probes.jsonl").read_text(encoding="utf-8").splitlines():
        texts += json.loads(line)["messages"]
    for line in (REPO / "tests/scoring/jailbreak_heldout_outputs.jsonl").read_text(encoding="utf-8").splitlines():
        texts.append(json.loads(line).get("answer") or "")
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        from audit_scale_bench import (
            CALM_REPLY,
            CALM_USER,
            ODD,
            OTHER_LANGUAGES,
            RISK_ADDRESSED,
            RISK_MISSED,
            RISK_USER,
        )
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    texts += [*CALM_USER, *CALM_REPLY, *RISK_USER, RISK_ADDRESSED, RISK_MISSED, *OTHER_LANGUAGES]
    texts += [text for pair in ODD for text in pair]
    texts = sorted(set(texts))
    curly = [t.translate(KEYBOARD) for t in texts if any(c in t for c in "'\"-")]
    return (
        texts
        + [t.upper() for t in texts]
        + [t.title() for t in texts]
        + [t.translate(LOOKALIKES) for t in texts]
        + curly
    )


CORPUS = corpus()


@pytest.fixture
def no_cues(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Disable every cue test: an empty cue is in every text, and every text may hold an identifier."""

    def disable() -> None:
        monkeypatch.setattr(detectors, "_RISK_CUES", ("",))
        monkeypatch.setattr(refusal, "_RULE_CUES", ("",))
        monkeypatch.setattr(safety_checks, "_METHOD_CUES", ("",))
        monkeypatch.setattr(safety_checks, "_CRISIS_SERVICE_CUES", ("",))
        monkeypatch.setattr(deid, "may_hold_identifier", lambda text: True)
        monkeypatch.setattr(rules, "ascii_words", lambda text: None)  # every text as if not ASCII
        monkeypatch.setattr(safety_checks, "ascii_words", lambda text: None)
        monkeypatch.setattr(phrases, "_SCOPE_PATTERNS", tuple((k, p, ("",)) for k, p, _ in phrases._SCOPE_PATTERNS))
        monkeypatch.setattr(batch_module, "conversation_memo", contextlib.nullcontext)

    return disable


def _verdicts(text: str) -> tuple[Any, ...]:
    return (
        detectors.shows_risk(text),
        refusal.detect_refusal(text),
        safety_checks.method_info_sentences(text),
        safety_checks.names_crisis_service(text),
        deid.find_spans(text, presidio=False),
        detectors.identifiers(text),
        deid.find_names([text]),
        rules.may_hold_identifier(text),
        phrases.scope_kinds(text),
    )


def test_the_corpus_exercises_every_detector() -> None:
    verdicts = [_verdicts(text) for text in CORPUS]
    assert len(CORPUS) > 2_000
    for index in range(4):  # some texts fire each detector, so the comparison below can fail
        assert sum(1 for v in verdicts if (v[index].refused if index == 1 else v[index])) >= 20, index
    assert sum(1 for v in verdicts if v[4]) >= 200
    assert sum(1 for v in verdicts if v[6]) >= 100  # names after a cue
    assert sum(1 for v in verdicts if v[8]) >= 20  # out-of-scope statements


def test_each_detector_gives_the_same_verdicts_without_its_cue_test(no_cues: Callable[[], None]) -> None:
    fast = [_verdicts(text) for text in CORPUS]
    no_cues()
    slow = [_verdicts(text) for text in CORPUS]
    different = [(text, f, s) for text, f, s in zip(CORPUS, fast, slow, strict=True) if f != s]
    assert not different, different[:3]


def _conversations(count: int, seed: int = 7) -> pa.RecordBatch:
    rng = random.Random(seed)
    rows = []
    for index in range(count):
        messages = []
        for _turn in range(rng.randint(1, 6)):
            messages.append({"role": "user", "content": rng.choice(CORPUS)})
            messages.append({"role": "assistant", "content": rng.choice(CORPUS)})
        rows.append({"conversation_id": f"c-{index}", "messages": messages})
    return pa.RecordBatch.from_pylist(rows, schema=CONVERSATIONS)


def test_the_detector_pass_writes_the_same_rows_without_cue_tests(no_cues: Callable[[], None]) -> None:
    batch = _conversations(1_500)
    fast = detect_all(batch)
    no_cues()
    slow = detect_all(batch)
    assert fast[0].equals(slow[0]) and fast[1].equals(slow[1])
    assert fast[1].num_rows >= 300  # flagged turns of every kind were compared
    flags = {flag for row in fast[1].to_pylist() for flag in row["flags"]}
    assert flags == {"missed_crisis", "over_escalation", "method_info", "privacy_leak", "refused"}
