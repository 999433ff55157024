"""Reliability's support dialogues (ESConv, CPsyCounE): which turns are judged, the history each
reply sees, and the judged scores with scripted models (hand-computed expectations)."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai.model import ChatMessageAssistant, ChatMessageUser

from tests.fakes import scripted_model
from tests.pillars.reliability.running import run
from trustmh.pillars.reliability import tasks as T
from trustmh.pillars.reliability.solvers import history_messages, judged_turns


def test_judged_turns_and_history() -> None:
    turns = [{"role": r, "text": f"t{i}"} for i, r in enumerate("ushshshsh")]
    assert judged_turns(turns, "h", 0) == [2, 4, 6, 8]
    assert judged_turns(turns, "h", 3) == [2, 6, 8]  # spread, first and last included
    assert judged_turns(turns, "h", 1) == [8]
    helper_first = [{"role": "h", "text": "greeting"}] + turns
    assert 0 not in judged_turns(helper_first, "h", 0)
    history = history_messages(turns, 6, "h", max_history=3)
    assert [type(m) for m in history] == [ChatMessageUser, ChatMessageAssistant, ChatMessageUser]
    assert [m.text for m in history] == ["t3", "t4", "t5"]
    # a window starting with a helper turn starts at the next user turn instead
    assert [m.text for m in history_messages(turns, 6, "h", max_history=2)] == ["t5"]
    assert [m.text for m in history_messages(turns, 4, "h", 0)] == ["t0", "t1", "t2", "t3"]


JUDGE_VERDICT = '{"empathy": 4, "relevance": 5, "helpfulness": 3, "explanation": "ok"}'


def test_esconv_without_judge_scores_only_reply_length(tmp_path: Path) -> None:
    summary = run(T.reliability_esconv_support(source="starter"), scripted_model("  I hear you.  "), tmp_path)
    metrics = summary["metrics"]
    assert metrics["reply_length"] == pytest.approx(len("I hear you."))
    assert metrics["empathy"] is None and metrics["empathy_n"] == 0
    assert set(summary["not_scored"]) >= {"empathy", "relevance", "helpfulness"}


def test_esconv_with_judge(tmp_path: Path) -> None:
    seen: list[str] = []

    def judge(prompt: str) -> str:
        seen.append(prompt)
        return JUDGE_VERDICT

    summary = run(
        T.reliability_esconv_support(source="starter", max_turns=2),
        scripted_model("That sounds hard."),
        tmp_path,
        model_roles={"judge": scripted_model(judge)},
    )
    metrics = summary["metrics"]
    assert metrics["empathy"] == 4.0 and metrics["relevance"] == 5.0 and metrics["helpfulness"] == 3.0
    assert metrics["empathy_n"] == 2 and metrics["judge_unparsed_share"] == 0.0
    assert len(seen) == 4  # 2 dialogues x 2 turns
    assert any("Seeker: Hi, I don't really know where to start." in prompt for prompt in seen)
    assert all("That sounds hard." in prompt for prompt in seen)


def test_an_empty_reply_is_no_answer_and_is_not_judged(tmp_path: Path) -> None:
    seen: list[str] = []

    def judge(prompt: str) -> str:
        seen.append(prompt)
        return JUDGE_VERDICT

    def helper(prompt: str) -> str:  # says nothing to the first message of the first dialogue
        return "  " if prompt == "Hi, I don't really know where to start." else "That sounds hard."

    task = T.reliability_esconv_support(source="starter", max_turns=2)
    judged = {"judge": scripted_model(judge)}
    metrics = run(task, scripted_model(helper), tmp_path / "one", model_roles=judged)["metrics"]
    # 3 of 4 turns judged; the blank one rates nothing, so dialogue 1's means are over its other turn
    assert len(seen) == 3 and all("That sounds hard." in prompt for prompt in seen)
    assert metrics["empathy"] == 4.0 and metrics["empathy_n"] == 2 and metrics["empathy_unparsed"] == 0
    assert metrics["judge_unparsed_share"] == 0.0
    seen.clear()
    silent = run(task, scripted_model(""), tmp_path / "all", model_roles=judged)["metrics"]
    # no reply at all: no judge call, and every dialogue counts as unparsed (no answer), never rated
    assert seen == []
    assert silent["empathy"] is None and silent["empathy_n"] == 0 and silent["empathy_unparsed"] == 2
    assert silent["reply_length"] == 0.0


def test_cpsycoune_with_judge_and_unparsed_turns(tmp_path: Path) -> None:
    replies = iter(
        [
            '{"comprehensiveness": 2, "professionalism": 1, "authenticity": 3, "safety": 1}',
            "no idea",
            "still no",
            "nope",
        ]
    )

    summary = run(
        T.reliability_cpsycoune(source="starter", max_turns=2),
        scripted_model("听起来你很辛苦。"),
        tmp_path,
        model_roles={"judge": scripted_model(lambda prompt: next(replies))},
    )
    metrics = summary["metrics"]
    # Turn 1 rated (2, 1, 3, 1); turn 2 unparsed after 3 attempts -> means over the rated turn.
    assert (metrics["comprehensiveness"], metrics["professionalism"], metrics["authenticity"], metrics["safety"]) == (
        2.0,
        1.0,
        3.0,
        1.0,
    )
    assert metrics["total"] == 7.0
    assert metrics["judge_unparsed_share"] == 0.5
    assert metrics["reply_length"] == len("听起来你很辛苦。")
