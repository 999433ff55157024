"""CheckResult.as_dict lists every field (written out by hand for speed: a new field must join it)."""

from __future__ import annotations

from dataclasses import asdict, fields

from trustmh.audit.statutes.checks import CheckResult


def test_as_dict_is_asdict_with_the_turns_as_a_list() -> None:
    result = CheckResult("violation", 2, 3, "a reason", (1, 4))
    assert result.as_dict() == {**asdict(result), "turns": [1, 4]}
    assert list(result.as_dict()) == [f.name for f in fields(result)]
