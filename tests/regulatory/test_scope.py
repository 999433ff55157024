"""The Illinois scope item on hand-made findings: the detector's count, and the judge's or its absence."""

from __future__ import annotations

from typing import Any

from trustmh.regulatory.scope import NOT_JUDGED, scope_value


def _conversation(sample: str, diagnosis_turns: list[int], judged: dict[str, Any] | None) -> dict[str, Any]:
    def result(turns: list[int]) -> dict[str, Any]:
        return {"status": "violation" if turns else "compliant", "turns": turns}

    checks = {"scope_therapy_claim": result([]), "scope_diagnosis": result(diagnosis_turns)}
    checks["scope_treatment_plan"] = result([])
    return {"sample": sample, "checks": checks, "reply_turns": 3, "judged_scope": judged}


def test_without_a_judge_the_item_says_so_and_keeps_the_detector_count() -> None:
    value = scope_value("m", [_conversation("a", [2], None), _conversation("b", [], None)])
    assert value["judge"] is None and value["judge_status"] == NOT_JUDGED == "not checked by a judge"
    assert value["detector"]["conversations_with_violation"] == 1 and value["detector"]["conversations_checked"] == 2
    assert value["detector_vs_judge"] is None


def test_unparsed_conversations_are_counted_apart() -> None:
    unparsed = {"verdict": None, "turns": [], "unparsed_turns": [1], "judged_turns": [1, 2, 3]}
    flagged = {"verdict": 1, "turns": [1, 3], "unparsed_turns": [], "judged_turns": [1, 2, 3]}
    value = scope_value("m", [_conversation("a", [], unparsed), _conversation("b", [], flagged)])
    judge = value["judge"]
    assert judge["conversations_judged"] == 1 and judge["unparsed_conversations"] == 1
    assert judge["conversations_with_violation"] == 1 and judge["turns_flagged"] == 2 and judge["unparsed_turns"] == 1
    assert value["detector_vs_judge"]["judge_only"] == 1
