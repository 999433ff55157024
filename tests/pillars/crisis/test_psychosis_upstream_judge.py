"""Benchmark-mode crisis_psychosis_bench judged by an API judge (the OpenAI-compatible double) with
psychosis-bench's own DCS/HES/SIS prompts: the log records upstream's prompt text, every judge
request is upstream's prompt for that turn, sent as upstream sends it, and verdicts are read
with the chosen parser (issue 24's acceptance)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.event import ModelEvent
from inspect_ai.log import read_eval_log
from inspect_ai.model import get_model

from tests.conversation.conversation_models import tagging_target
from tests.doubles.openai_double import OpenAIDouble
from tests.fakes import metrics_of
from trustmh.conversation.record import Turn
from trustmh.data.upstream_code import template_text
from trustmh.pillars.crisis.psychosis_bench import crisis_psychosis_bench
from trustmh.pillars.crisis.psychosis_upstream import upstream_conversation, upstream_judges

# The double's reply per score: DCS always 2, HES "Score: 1", SIS an echo of the scale then its
# answer, which upstream's parser reads as 0 and the corrected one leaves unparsed.
REPLIES = {"dcs": "2", "hes": "Score: 1", "sis": "0 or 1? I would say 1"}


def _score_of(prompt: str, starts: dict[str, str]) -> str:
    return next(score for score, start in starts.items() if prompt.startswith(start))


def _run(tmp_path: Path, data: Path, parser: str) -> Any:
    judges = upstream_judges(str(data))
    starts = {score: str(t.parts[0]) for score, t in judges.templates.items()}
    assert len(set(starts.values())) == 3  # each template opens with its own text

    def responder(messages: list[dict[str, Any]]) -> str:
        assert len(messages) == 1 and messages[0]["role"] == "user"  # upstream: one user message
        return REPLIES[_score_of(messages[0]["content"], starts)]

    task = crisis_psychosis_bench(source="benchmark", data_dir=str(data), condition="explicit", parser=parser)
    tags = {
        text: f"<<c{n}-{turn}>>"
        for n, s in enumerate(task.dataset)
        for turn, text in enumerate(s.metadata["user_turns"], 1)
    }
    with OpenAIDouble(responder=responder) as server:
        judge = get_model(
            "openai/upstream-judge", base_url=server.base_url, api_key="sk-test-psychosis-0000", responses_api=False
        )
        [log] = eval(
            task,
            model=tagging_target(f"psychosis-upstream-{parser}", tags),
            model_roles={"judge": judge},
            limit=1,
            log_dir=str(tmp_path),
            display="none",
        )
    return read_eval_log(log.location, resolve_attachments=True)  # the log as written, prompts in full


def test_upstream_prompts_are_logged_and_sent_verbatim(tmp_path: Path, shared_data: Path) -> None:
    log = _run(tmp_path, shared_data, "corrected")
    assert log.status == "success", log.error
    judges = upstream_judges(str(shared_data))
    recorded = log.eval.metadata["judge_prompt_text"]
    assert log.eval.metadata["judge_prompts"] == "upstream"
    for score, template in judges.templates.items():
        assert recorded[score]["template"] == template_text(template)  # upstream's prompt text, in the log
        assert recorded[score]["origin"].startswith("psychosis_bench/upstream/scoring.py:Scorer.score_")
    [sample] = log.samples
    turns = [Turn(**t) for t in sample.store["trustmh_conversation"]["turns"]]
    calls = [e for e in sample.events if isinstance(e, ModelEvent) and e.model.endswith("upstream-judge")]
    assert len(calls) == 9 + 6 + 6  # DCS turns 4-12, HES and SIS turns 7-12, one call each
    expected = {
        judges.templates[score].render(
            {"conversation": upstream_conversation(turns, n), "harm_type": sample.metadata["harm_type"]}
        )
        for score, first in (("dcs", 4), ("hes", 7), ("sis", 7))
        for n in range(first, 13)
    }
    sent = {call.input[0].text for call in calls}
    assert sent == expected
    for call in calls:  # upstream sets neither temperature nor a token limit
        assert call.config.temperature is None and call.config.max_tokens is None
    metrics = metrics_of(log)
    assert metrics["dcs"] == 2.0 and metrics["hes"] == 1.0
    assert metrics["sis_n"] == 0 and metrics["sis_unparsed"] == 1  # every SIS reply is ambiguous
    fingerprint = sample.scores["psychosis_scorer"].metadata["judge_fingerprint"]
    assert fingerprint["verbatim"]["psychosis_sis_upstream"]["parser"] == "corrected"


def test_upstream_parser_reads_the_first_number(tmp_path: Path, shared_data: Path) -> None:
    log = _run(tmp_path, shared_data, "upstream")
    metrics = metrics_of(log)
    assert metrics["sis"] == 0.0 and metrics["sis_n"] == 1  # upstream reads "0 or 1? ... 1" as 0
    assert metrics["sis_count"] == 0.0 and metrics["sis_total"] == 0.0 and metrics["sis_total_n"] == 1
    assert log.eval.metadata["judge_parser"] == "upstream"


@pytest.mark.parametrize("bad", [{"parser": "lenient"}, {"judge_prompts": "paper"}])
def test_bad_options_are_user_errors(bad: dict[str, str]) -> None:
    from trustmh.core.errors import UserError

    with pytest.raises(UserError, match="must be one of"):
        crisis_psychosis_bench(source="starter", **bad)
