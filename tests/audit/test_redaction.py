"""--redact: planted identifiers become stable keyed placeholders; the map stays local, owner-only."""

from __future__ import annotations

import json
import stat
from pathlib import Path

from trustmh.audit.redaction import MAP_FILE, PLACEHOLDER, Redactor, find_names, load_redactor, pii_spans

PLANTED = (
    "Hi, I'm Tom. My sister Laura Ng says I should talk to someone. I live at 42 Elm Street, London SW1A 1AA, "
    "my number is 07700 900123 or +1 (415) 555-0137 and email tom.baker@example.com. "
    "My employee ID was AB123456, SSN 123-45-6789, account 99887766."
)
SECRETS = (
    "Tom",
    "Laura",
    "Ng",
    "42 Elm Street",
    "SW1A 1AA",
    "07700 900123",
    "555-0137",
    "tom.baker@example.com",
    "AB123456",
    "123-45-6789",
    "99887766",
)


def _redactor() -> Redactor:
    return Redactor(b"k" * 32)


def test_every_planted_identifier_is_replaced() -> None:
    redacted = _redactor().redact_messages([("user", PLANTED), ("assistant", "Thanks Tom, and say hi to Laura.")])
    text = " ".join(t for _, t in redacted)
    leaked = [s for s in SECRETS if s in text]
    assert not leaked, (leaked, text)
    kinds = {m.group(0).split("_")[0][1:] for m in PLACEHOLDER.finditer(text)}
    # the postcode is its own kind now (it was an ADDRESS)
    assert {"NAME", "EMAIL", "PHONE", "ADDRESS", "POSTCODE", "ID"} <= kinds, kinds


def test_placeholders_are_stable_across_conversations_and_runs() -> None:
    first = _redactor().redact_text("write to a.b@example.com")
    again = _redactor().redact_text("or A.B@example.com today")  # another conversation, another run
    token = PLACEHOLDER.search(first)
    assert token and token.group(0) in again
    other_key = Redactor(b"x" * 32).redact_text("write to a.b@example.com")
    assert other_key != first  # keyed: nobody without the key can test a guess


def test_phone_spellings_share_a_placeholder() -> None:
    redactor = _redactor()
    assert redactor.redact_text("+1 415 555 0137") == redactor.redact_text("+1 (415) 555-0137")


def test_names_need_a_cue_but_are_then_replaced_everywhere() -> None:
    assert find_names(["I feel Sad today", "The weather"]) == set()
    assert {"Maya"} <= find_names(["my friend Maya is worried"])
    redacted = _redactor().redact_messages([("user", "my friend Maya is worried"), ("assistant", "Maya cares.")])
    assert "Maya" not in redacted[1][1]


def test_ordinary_numbers_and_words_survive() -> None:
    text = "I slept 6 hours, it's 2 weeks now and call 988 if needed."
    assert pii_spans(text) == []
    assert _redactor().redact_text(text) == text


def test_map_is_saved_owner_only_and_reloaded_with_its_key(tmp_path: Path) -> None:
    redactor = load_redactor(tmp_path)
    token = redactor.redact_text("mail me at x.y@example.com")
    redactor.save()
    path = tmp_path / MAP_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert "x.y@example.com" in json.loads(path.read_text(encoding="utf-8"))["placeholders"].values()
    assert load_redactor(tmp_path).redact_text("mail me at x.y@example.com") == token


def test_unreadable_map_is_a_one_line_error(tmp_path: Path) -> None:
    (tmp_path / MAP_FILE).write_text("{nope", encoding="utf-8")
    import pytest

    from trustmh.core.errors import UserError

    with pytest.raises(UserError, match="not a readable redaction map"):
        load_redactor(tmp_path)


def test_a_conversation_is_redacted_in_its_id_metadata_keys_and_values_and_counted_per_kind() -> None:
    redactor = _redactor()
    conversation_id, messages, metadata = redactor.redact_conversation(
        "anna.smith@example.com",
        [("user", "my name is anna, call 988 if needed")],
        {"+1 415 555 0137": "caller", "who": "anna"},
    )
    assert "anna.smith@example.com" not in conversation_id and conversation_id.startswith("[EMAIL_")
    assert "anna" not in messages[0][1] and "988" in messages[0][1]  # a crisis line is no identifier
    assert "+1 415 555 0137" not in "".join(metadata) and "anna" not in "".join(metadata.values())
    assert redactor.counts == {"EMAIL": 1, "NAME": 2, "PHONE": 1}
    assert "anna" not in str(dict(redactor.counts))  # counts only, never values
