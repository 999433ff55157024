"""dialogue_mindeval: profiles, checkpoints and criterion means by hand with a scripted judge."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from inspect_ai import eval
from inspect_ai.model import get_model

from tests.fakes import script
from trustmh.data.registry import get_dataset
from trustmh.dialogue.mindeval import checkpoint_turns, dialogue_mindeval, mindeval_dataset
from trustmh.dialogue.mindeval_prompts import CRITERIA


def test_checkpoints() -> None:
    assert checkpoint_turns(10) == {"half": 5, "end": 10}
    assert checkpoint_turns(3) == {"half": 1, "end": 3}


def test_real_profiles_and_severity(shared_data: Path) -> None:
    samples = list(mindeval_dataset("benchmark", str(shared_data)))
    assert len(samples) == 50
    assert {s.metadata["severity"] for s in samples} == {"minimal", "mild", "moderate", "severe"}
    assert "non-commercial" in get_dataset("mindeval").license.lower()


def test_starter_profiles_have_mindevals_shape(shared_data: Path) -> None:
    """Our starter profiles (written by us: MindEval's are non-commercial and never bundled) carry
    every attribute a MindEval profile has, so the judge sees the same kind of profile."""
    upstream = {frozenset(s.metadata["member_attributes"]) for s in mindeval_dataset("benchmark", str(shared_data))}
    starter = list(mindeval_dataset("starter", None))
    assert len(upstream) == 1 and len(starter) == 2
    assert all(frozenset(s.metadata["member_attributes"]) == next(iter(upstream)) for s in starter)
    assert {s.metadata["severity"] for s in starter} == {"moderate", "minimal"}
    assert all(s.metadata["persona"].startswith("You ") for s in starter)


def _judge(prompt: str) -> str:
    # The judge reads how many assistant answers it sees: 1 (half of 3 turns) or 3 (the end).
    answers = prompt.count("] Assistant:") + 1
    # Ines (moderate) gets 4s at the end, Tariq (minimal) 2s; both 3s at the half-way checkpoint.
    if answers == 1:
        score = 3
    else:
        score = 4 if "Ines" in prompt else 2
    return json.dumps({c: score for c in CRITERIA})


def test_end_to_end_scores_by_hand(tmp_path: Path) -> None:
    [log] = eval(
        dialogue_mindeval(source="starter"),
        model=script("mindeval-counsellor", ["I hear you. What would help most today?"]),
        model_roles={
            "user": get_model(script("mindeval-member", ["It's been a hard week."])),
            "judge": get_model(script("mindeval-judge", [_judge])),
        },
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success", log.error
    metrics = {k: v.value for s in log.results.scores for k, v in s.metrics.items()}
    assert metrics["overall"] == pytest.approx(3.0) and metrics["overall_n"] == 2
    assert metrics["clinical_accuracy"] == pytest.approx(3.0)
    assert metrics["overall[severity=moderate]"] == pytest.approx(4.0)
    assert metrics["overall[severity=minimal]"] == pytest.approx(2.0)
    assert metrics["overall_at_half"] == pytest.approx(3.0)
    assert metrics["judge_unparsed_rate"] == 0.0
    for sample in log.samples:
        assert sample.messages[0].role == "system"  # the counsellor's system prompt
        assert [m.role for m in sample.messages[1:]] == ["user", "assistant"] * 3


def test_without_judge_not_scored(tmp_path: Path) -> None:
    [log] = eval(
        dialogue_mindeval(source="starter", turns=2),
        model=script("mindeval-both", ["Okay."]),
        log_dir=str(tmp_path),
        display="none",
    )
    metrics = {k: v.value for s in log.results.scores for k, v in s.metrics.items()}
    assert math.isnan(metrics["overall"]) and metrics["turns"] == 2
