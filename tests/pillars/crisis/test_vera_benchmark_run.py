"""Benchmark-mode ``crisis_simulated_risk`` (VERA-MH) end to end: the simulated user and the judge are
scripted OpenAI-compatible endpoints (the double). The user side gets VERA-MH's persona prompt as its
system prompt; every judge request is what VERA-MH's own ``LLMJudge`` (the pinned file, run on the
recorded conversation with the same scripted judge) sends, at upstream's settings; the log names
the protocol as VERA-MH with upstream's prompt text; the figures are score.py's."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.event import ModelEvent
from inspect_ai.log import read_eval_log
from inspect_ai.model import get_model

from tests.doubles.openai_double import OpenAIDouble
from tests.fakes import metrics_of, script
from tests.pillars.crisis.vera_stand_in import upstream_evaluation
from trustmh.conversation.record import Turn
from trustmh.core.errors import UserError
from trustmh.pillars.crisis.simulated_risk import crisis_simulated_risk
from trustmh.pillars.crisis.vera_rubric import load_vera_rubric
from trustmh.pillars.crisis.vera_upstream import conversation_text


def _run(tmp_path: Path, data: Path, parser: str = "upstream") -> tuple[Any, Any]:
    rubric = load_vera_rubric(str(data))
    beginning = rubric.beginning.split("{conversation}")[0]
    prompts = {rubric.question_prompt(q): qid for qid, q in rubric.questions.items()}
    roles_seen: list[tuple[str, ...]] = []

    def judge(question: str) -> str:
        qid = prompts[question]
        if qid in ("4", "13"):
            option = rubric.questions[qid].options[0 if qid == "4" else 2]
            return f"ANSWER: {option}\nREASONING: scripted"
        return "ANSWER: Yes\nREASONING: it did not" if qid == "21" else "ANSWER: No\nREASONING: fine"

    def responder(messages: list[dict[str, Any]]) -> str:
        # Never raise here: the double would answer 500 and the client retry without end.
        system = messages[0]["content"]
        if system.startswith(beginning):  # a judge request: the system message (inspect sends it with
            # the "developer" role to models it takes for recent OpenAI ones) and the question
            roles_seen.append(tuple(m["role"] for m in messages))
            return judge(messages[1]["content"]) if messages[1]["content"] in prompts else "unexpected question"
        return f"some days r just heavy ({len(messages)})"  # the persona

    task = crisis_simulated_risk(source="benchmark", data_dir=str(data), runs=1, max_turns=2, parser=parser)
    with OpenAIDouble(responder=responder) as server:
        models = {
            role: get_model(
                f"openai/vera-{role}", base_url=server.base_url, api_key="sk-test-vera-0000", responses_api=False
            )
            for role in ("judge", "user")
        }
        [log] = eval(
            task,
            model=script("vera-chatbot", ["That sounds heavy. Are you thinking of ending your life?"]),
            model_roles=models,
            limit=2,
            log_dir=str(tmp_path),
            display="none",
        )
    assert roles_seen and set(roles_seen) <= {("system", "user"), ("developer", "user")}
    return read_eval_log(log.location, resolve_attachments=True), judge


def test_vera_mh_run_sends_upstreams_requests(tmp_path: Path, shared_data: Path) -> None:
    log, judge = _run(tmp_path, shared_data)
    metrics = metrics_of(log)
    meta = log.eval.metadata
    assert meta["protocol_label"].startswith("VERA-MH (") and meta["judge_parser"] == "upstream"
    assert meta["protocol"]["mode"] == "benchmark" and "vera_mh/data/rubric.tsv" in meta["protocol"]["upstream"]
    rubric = load_vera_rubric(str(shared_data))
    assert meta["judge_prompt_text"]["system"]["template"] == rubric.beginning  # upstream's text, in the log
    personas = {
        r["Name"]: r for r in csv.DictReader((shared_data / "vera_mh/data/personas.tsv").open(), delimiter="\t")
    }
    template = (shared_data / "vera_mh/data/persona_prompt_template.txt").read_text(encoding="utf-8")
    assert len(log.samples) == 2
    for sample in log.samples:
        name = sample.metadata["vera_persona"]
        turns = [Turn(**t) for t in sample.store["trustmh_conversation"]["turns"]]
        assert len(turns) == 2
        events = [e for e in sample.events if isinstance(e, ModelEvent)]
        user_calls = [e for e in events if e.model.endswith("vera-user")]
        assert user_calls[0].input[0].text == template.format(**personas[name])  # the persona prompt, verbatim
        judge_calls = [e for e in events if e.model.endswith("vera-judge")]
        conversation = tmp_path / f"{sample.id}.txt"
        conversation.write_text(conversation_text(turns), encoding="utf-8")
        results, expected = upstream_evaluation(shared_data / "vera_mh", conversation, judge)
        assert [(c.input[0].text, c.input[1].text) for c in judge_calls] == expected  # byte for byte, in order
        for call in judge_calls:  # a system and a user message; no temperature and no token limit
            assert [m.role for m in call.input] == ["system", "user"]
            assert call.config.temperature is None and call.config.max_tokens is None
        score = sample.scores["vera_mh_scorer"]
        assert score.metadata["vera_mh_scores"] == {d: r["score"] for d, r in results.items()}
    # Question 21 (Red) answered Yes in both: every conversation has a high harm.
    assert metrics["vera_mh_high_harm_conversations_pct"] == 100.0
    assert metrics["vera_mh_high_harm_conversations_pct_n"] == 2 and metrics["vera_mh_unparsed"] == 0
    assert metrics["vera_mh_conversations"] == 2


def test_corrected_parser_is_named_in_the_log(tmp_path: Path, shared_data: Path) -> None:
    log, _ = _run(tmp_path, shared_data, parser="corrected")
    assert log.eval.metadata["judge_parser"] == "corrected"
    assert metrics_of(log)["vera_mh_conversations"] == 2


def test_starter_slice_stays_the_trustmh_protocol() -> None:
    task = crisis_simulated_risk(source="starter")
    assert task.metadata["protocol_label"] == "VERA-MH-style (trustmh protocol)"
    assert task.metadata["judge_protocol"] == "trustmh"


@pytest.mark.parametrize("bad", [{"protocol": "paper"}, {"parser": "lenient"}])
def test_bad_options_are_user_errors(bad: dict[str, str]) -> None:
    with pytest.raises(UserError, match="must be one of"):
        crisis_simulated_risk(source="starter", **bad)
