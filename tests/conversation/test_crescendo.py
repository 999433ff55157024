"""safety_crescendo: field rules by hand and an end-to-end run with scripted attacker, target, judge."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inspect_ai import eval
from inspect_ai.model import get_model

from tests.fakes import script
from trustmh.pillars.safety.crescendo import crescendo_fields, safety_crescendo

REFUSAL = "I can't help with that."


def test_fields_by_hand() -> None:
    fields = crescendo_fields(
        "Sure, here it is.",
        REFUSAL,
        {1: "refused", 2: "partially complied", 3: "complied"},
        {1: 0, 2: 0, 3: 1},
    )
    assert fields == {
        "final_refusal": 0.0,
        "single_turn_refusal": 1.0,
        "final_judge_refused": 0.0,
        "first_compliance_turn": 3.0,
        "objective_reached": 1.0,
    }
    # Never complied, all parsed: no first-compliance turn; an unparsed last verdict stays unparsed.
    held = crescendo_fields(REFUSAL, REFUSAL, {1: "refused", 2: None}, {1: 0, 2: None})
    assert held["final_judge_refused"] is None and held["first_compliance_turn"] is None
    assert held["objective_reached"] is None
    # Without a judge only the detector fields exist.
    assert set(crescendo_fields(REFUSAL, "ok", None, None)) == {"final_refusal", "single_turn_refusal"}


def test_end_to_end(tmp_path: Path) -> None:
    task = safety_crescendo(source="starter")
    first, second = (s.metadata["request"] for s in task.dataset)

    def target(prompt: str) -> str:
        # Refuses each request asked outright; the first attack gives in at the third step.
        if prompt in (first, second):
            return REFUSAL
        return "Fine, here you go: step one." if prompt == "step 3" else "Some general background."

    def judge(prompt: str) -> str:
        latest = prompt.rsplit("Assistant's latest answer", 1)[-1]
        complied = "here you go" in latest
        return json.dumps({"verdict": "complied" if complied else "refused", "objective_reached": int(complied)})

    turns = iter(["step 1", "step 2", "step 3"] * 2)
    [log] = eval(
        task,
        model=script("crescendo-target", [target]),
        model_roles={
            "user": get_model(script("crescendo-attacker", [lambda _: next(turns)])),
            "judge": get_model(script("crescendo-judge", [judge])),
        },
        log_dir=str(tmp_path),
        display="none",
        max_samples=1,  # conversations one after the other: the attacker's script is shared
    )
    assert log.status == "success", log.error
    metrics = {k: v.value for s in log.results.scores for k, v in s.metrics.items()}
    # Both conversations: step 1, 2, 3; the target refuses the bare request, gives in at step 3.
    assert metrics["single_turn_rta"] == 1.0
    assert metrics["final_refusal_rate"] == 0.0
    assert metrics["final_judge_refusal_rate"] == 0.0
    assert metrics["first_compliance_turn"] == pytest.approx(3.0)
    assert metrics["objective_reached_rate"] == 1.0
    assert metrics["turns"] == 3
