"""fairness_esconv end to end on replayed answers with a scripted judge; hand-computed spreads."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.fakes import metrics_of, replay_eval, scripted_model, write_replay
from trustmh.pillars.fairness.scorers import sentiment
from trustmh.pillars.fairness.tasks import fairness_esconv

GOOD = "I hear how hard this is, and your feelings make sense. quality=5"
POOR = "Just get over it. quality=2"
REFUSAL = "I'm sorry, but I can't help with that."


def answer(metadata: dict) -> str | None:
    if metadata["group"] == "woman":
        return POOR
    if metadata["group"] == "70" and metadata["dialogue_id"] == "starter-esc-1":
        return REFUSAL
    if metadata["group"] == "Muslim" and metadata["dialogue_id"] == "starter-esc-2":
        return None
    return GOOD


def fairness_judge(prompt: str) -> str:
    """Support quality = the digit written as ``quality=N`` in the reply under judgement."""
    found = re.search(r"## Supporter's reply\n.*?quality=(\d)", prompt, re.DOTALL)
    return json.dumps({"support_quality": int(found.group(1))}) if found else "no idea"


def test_starter_run_with_judge(tmp_path: Path) -> None:
    task = fairness_esconv(source="starter")
    path = write_replay(tmp_path / "answers.jsonl", {str(s.id): answer(s.metadata) for s in task.dataset})
    m = metrics_of(replay_eval(task, path, tmp_path, scripted_model(fairness_judge)))
    # Gender: women always get quality 2, others 5 -> range 3 with a zero-width paired CI.
    assert m["support_quality_range[attribute=gender]"] == pytest.approx(3.0)
    assert m["support_quality_range[attribute=gender]_ci_low"] == pytest.approx(3.0)
    assert m["support_quality_range[attribute=gender]_n"] == 4
    assert m["support_quality_worst_group[attribute=gender]"] == 1  # man, woman, non-binary
    # Shuffling labels within each of the 4 dialogues keeps the range at 3 only when all four
    # 2s land in the same column: probability 3 * (1/3)^4 = 1/27.
    assert m["support_quality_range_p[attribute=gender]"] == pytest.approx(1 / 27, abs=0.015)
    assert m["answer_length_range[attribute=gender]"] == pytest.approx(len(GOOD.split()) - len(POOR.split()))
    assert m["sentiment_range[attribute=gender]"] == pytest.approx(abs(sentiment(GOOD) - sentiment(POOR)))
    # Age: one refusal for the 70-year-old in 1 of 4 dialogues -> refusal-rate range 1/4.
    assert m["refusal_rate_range[attribute=age]"] == pytest.approx(0.25)
    assert m["refusal_rate_worst_group[attribute=age]"] == 2
    # The refusal has no "quality=" so the judge's reply is unparsed (counted, not scored).
    assert m["support_quality_range[attribute=age]_unparsed"] == 1
    assert m["support_quality_range[attribute=age]"] == pytest.approx(0.0)
    # Religion: one missing answer is unparsed, the other dialogues still pair up.
    assert m["sentiment_range[attribute=religion]_unparsed"] == 1
    assert m["sentiment_range[attribute=religion]"] == pytest.approx(0.0)
    # Per-variant means from the shared grouped metric.
    assert m["support_quality[variant=gender=woman]"] == pytest.approx(2.0)
    assert m["refusal_rate[variant=baseline=baseline]"] == 0.0


def test_without_judge_support_quality_is_not_scored(tmp_path: Path) -> None:
    task = fairness_esconv(source="starter", attributes="gender")
    path = write_replay(tmp_path / "answers.jsonl", {str(s.id): GOOD for s in task.dataset})
    m = metrics_of(replay_eval(task, path, tmp_path))
    assert m["support_quality_range[attribute=gender]_n"] == 0
    assert m["support_quality_range[attribute=gender]"] != m["support_quality_range[attribute=gender]"]  # NaN
    assert m["answer_length_range[attribute=gender]"] == 0.0
    assert "answer_length_range[attribute=race]" not in m


def test_attribute_option_and_benchmark_size(shared_data: Path) -> None:
    assert len(fairness_esconv(source="starter", attributes="gender").dataset) == 4 * 4
    assert len(fairness_esconv(data_dir=str(shared_data), attributes="age,religion").dataset) == 11 * 7
