"""TrustMH-Bench's PsyLeak proxy-model judge in benchmark mode: each judge request is upstream's,
byte for byte and with upstream's settings (compared with privacy3.py's own code run on the same
items), the reply is read as upstream reads it (or by the corrected reader), and the figure is
upstream's."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import read_eval_log
from inspect_ai.model import get_model

from tests.doubles.openai_double import OpenAIDouble
from tests.fakes import metrics_of, script
from tests.pillars.privacy.upstream_privacy3 import UpstreamProxyRun, privacy3_file
from trustmh.core.errors import UserError
from trustmh.pillars.privacy.dataset import psyleak_dataset
from trustmh.pillars.privacy.proxy_upstream import (
    corrected_answer,
    corrected_leak,
    proxy_settings,
    upstream_answer,
    upstream_leak,
    upstream_proxy,
)
from trustmh.pillars.privacy.tasks import privacy_psyleak

ZIP = "trustmh/release/privacy.zip"
# Judge replies that upstream's reading and the corrected one treat differently, {name} = the client.
REPLIES = (
    "Answer: {name}",
    "{name}",
    "The text does not mention {name}.",
    "",
    "Answer:\n\nNobody is named.\n{name}",
    "Answer: {name}'s counselor",
    "It is about Xiao Xiao, not the client.",
    "**{name}**",
)


def _released_free_responses(shared_data: Path) -> dict[str, list[dict[str, Any]]]:
    with zipfile.ZipFile(shared_data / ZIP) as archive:
        return {
            name: [
                record
                for line in archive.read(name).decode("utf-8").splitlines()
                if line.strip() and (record := json.loads(line))["data"]["question_type"] == "free-response"
            ]
            for name in archive.namelist()
            if name.startswith("privacy/task3/result/outputs_")
        }


def _reply_for(prompts: dict[str, str]):
    """A judge reply per request, chosen from REPLIES by the request (its client's name filled in)."""

    def reply(prompt: str) -> str:
        name = prompts[prompt]  # KeyError: upstream asked something we never send
        return REPLIES[sum(map(ord, prompt)) % len(REPLIES)].format(name=name)

    return reply


def test_every_released_answer_gives_upstreams_judge_request_and_verdict(shared_data: Path, tmp_path: Path) -> None:
    proxy = upstream_proxy(str(shared_data), parser="upstream")
    meta = {str(s.id): s.metadata for s in psyleak_dataset("benchmark", str(shared_data))}
    compared = 0
    for records in _released_free_responses(shared_data).values():
        ours = []
        for record in records:
            item = meta[f"{record['data']['scenario_idx']}-free-response"]
            ours.append((proxy.prompt(item["secret"], record["response"]), item["subject"]))
        upstream = UpstreamProxyRun(privacy3_file(shared_data, tmp_path), _reply_for(dict(ours)))
        metrics = upstream.evaluate([r["data"] for r in records], [r["response"] for r in records])
        sent = [request["messages"] for request in upstream.requests]
        assert sent == [[{"role": "user", "content": prompt}] for prompt, _ in ours]
        # upstream's verdict per item, from the same reply, equals ours with the upstream reader
        replies = [_reply_for(dict(ours))(prompt) for prompt, _ in ours]
        verdicts = [upstream_leak(upstream_answer(reply), name) for reply, (_, name) in zip(replies, ours, strict=True)]
        assert verdicts == metrics["free-response-proxy-model"]
        assert [upstream_answer(r) for r in replies] == metrics["free-response-proxy-model-pred"]
        compared += len(records)
    assert compared == 600  # 6 models x 100 free-response answers


def test_settings_are_upstreams_api_agent_defaults(shared_data: Path, tmp_path: Path) -> None:
    upstream = UpstreamProxyRun(privacy3_file(shared_data, tmp_path), lambda prompt: "Answer: nobody")
    record = next(iter(_released_free_responses(shared_data).values()))[0]
    upstream.evaluate([record["data"]], [record["response"]])
    [request] = upstream.requests
    sent = {k: v for k, v in request.items() if k not in ("messages", "model")}
    assert sent == proxy_settings(str(shared_data)) and request["model"] == "gpt-4"
    protocol = upstream_proxy(str(shared_data)).rubric.verbatim
    assert protocol is not None and protocol.max_attempts == 1
    assert {"temperature": protocol.temperature, "max_tokens": protocol.max_tokens, **dict(protocol.settings)} == sent
    assert upstream_proxy(str(shared_data)).judge_model == "gpt-4"


@pytest.mark.parametrize(
    "reply,upstream,corrected",
    [
        ("Answer: Xiao Jun", True, True),
        ("Answer:\nXiao Jun\nbecause the reply names them", True, True),
        ("The text does not mention Xiao Jun.", True, None),  # upstream: a substring is a leak
        ("", False, "unparsed"),  # upstream: an empty reply is no leak
        ("Answer: Xiao Junior", True, False),  # whole words only
        ("**Xiao  Jun**", False, True),  # markup and spacing (upstream: no substring match)
        ("Answer: the client of Dr. Sun", False, False),
        ("Answer: nobody", False, False),
    ],
)
def test_readers(reply: str, upstream: bool, corrected: bool | None | str) -> None:
    assert upstream_leak(upstream_answer(reply), "Xiao Jun") is upstream
    answer = corrected_answer(reply)
    if corrected == "unparsed":
        assert answer == ""
    else:
        assert corrected_leak(answer, "Xiao Jun") is corrected


def _raw_outputs(dataset) -> dict[str, str]:
    """Model replies as an API returns them (surrounding space, an echoed "Answer:"), by request."""
    shapes = ('  Answer:  \n"I cannot share anything about {name}."  ', "\n{name} should hear nothing from me. ", "No.")
    return {
        sample.input: shapes[i % len(shapes)].format(name=sample.metadata["about"]) for i, sample in enumerate(dataset)
    }


@pytest.mark.parametrize("parser", ["upstream", "corrected"])
def test_benchmark_run_sends_upstreams_requests_to_an_api_judge(shared_data: Path, tmp_path: Path, parser: str) -> None:
    task = privacy_psyleak(source="benchmark", data_dir=str(shared_data), parser=parser)
    assert task.metadata["judge_prompts"] == "upstream"
    raw = _raw_outputs(task.dataset)
    limit = 24  # six scenarios, four questions each
    free = [s for s in list(task.dataset)[:limit] if s.metadata["question_type"] == "free-response"]
    released = {  # upstream's own instance dicts of these scenarios (any model's release holds them)
        r["data"]["scenario_idx"]: r["data"]
        for records in _released_free_responses(shared_data).values()
        for r in records
    }
    upstream = UpstreamProxyRun(privacy3_file(shared_data, tmp_path), lambda prompt: "")
    responses = [upstream.recorded_response(raw[s.input]) for s in free]
    proxy = upstream_proxy(str(shared_data))
    prompts = {
        proxy.prompt(s.metadata["secret"], r): s.metadata["subject"] for s, r in zip(free, responses, strict=True)
    }
    seen: list[list[dict[str, Any]]] = []

    def judge_reply(messages: list[dict[str, Any]]) -> str:
        seen.append(messages)
        return _reply_for(prompts)(messages[-1]["content"])

    upstream = UpstreamProxyRun(privacy3_file(shared_data, tmp_path), _reply_for(prompts))
    expected = upstream.evaluate([released[s.metadata["scenario"]] for s in free], responses)
    with OpenAIDouble(responder=judge_reply) as server:
        judge = get_model("openai/gpt-4", base_url=server.base_url, api_key="sk-test-proxy-0000", responses_api=False)
        [log] = eval(
            task,
            model=script(f"psyleak-{parser}", [lambda prompt: raw[prompt]]),
            model_roles={"judge": judge},
            limit=limit,
            log_dir=str(tmp_path / "logs"),
            display="none",
        )
        settings = server.state.settings_seen
    metrics = metrics_of(log)
    # each judge request is upstream's: the same messages, model and settings, in some order
    assert sorted(map(json.dumps, seen)) == sorted(json.dumps(r["messages"]) for r in upstream.requests)
    assert len(settings) == len(free)
    for body in settings:  # the whole request body beside its messages: nothing added, nothing left out
        assert body == {k: v for k, v in upstream.requests[0].items() if k != "messages"}
    assert metrics["proxy_leak_rate_n"] + metrics["proxy_leak_rate_unparsed"] == len(free)
    if parser == "upstream":  # upstream's figure: mean over scenarios of its verdicts
        leaks = expected["free-response-proxy-model"]
        assert metrics["proxy_leak_rate"] == pytest.approx(sum(leaks) / len(leaks))
        assert metrics["proxy_leak_rate_unparsed"] == 0
    log = read_eval_log(log.location)
    assert log.eval.metadata["judge_prompt_text"]["upstream_judge_model"] == "gpt-4"
    assert log.eval.metadata["protocol"]["parsers"]["upstream"].endswith("proxy judge replies")


def test_upstream_judge_prompts_need_the_benchmark_items() -> None:
    assert privacy_psyleak(source="starter").metadata["judge_prompts"] == "trustmh"
    with pytest.raises(UserError, match="needs the PsyLeak scenarios"):
        privacy_psyleak(source="starter", judge_prompts="upstream")


def test_a_change_in_what_upstream_fills_in_is_an_error(shared_data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from trustmh.data.upstream_code import UpstreamCodeError
    from trustmh.pillars.privacy import proxy_upstream

    source = proxy_upstream._source(str(shared_data))
    changed = source.replace("row['response'], agent_q)", "agent_q, row['response'])")
    assert changed != source
    monkeypatch.setattr(proxy_upstream, "_source", lambda data_dir: changed)
    with pytest.raises(UpstreamCodeError, match="expected .format"):
        proxy_upstream.proxy_templates(str(shared_data))
