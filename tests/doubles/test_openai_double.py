"""The loopback OpenAI double: responses, usage, fault mix, counts, both run modes."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from tests.doubles.openai_double import Faults, OpenAIDouble, choose_fault, messages_key


def post(
    base_url: str, messages: list[dict[str, str]], headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(
        f"{base_url}/chat/completions",
        data=json.dumps({"model": "m", "messages": messages}).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, dict(reply.headers), reply.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_echo_reply_reports_usage_and_counts_per_sample() -> None:
    messages = [{"role": "user", "content": "one two three"}]
    with OpenAIDouble() as server:
        status, _, body = post(server.base_url, messages)
        post(server.base_url, messages)
        post(server.base_url, [{"role": "user", "content": "other"}], {"X-Sample-Key": "sample-7"})
        counts = server.request_counts
    reply = json.loads(body)
    assert status == 200
    assert "one two three" in reply["choices"][0]["message"]["content"]
    assert reply["usage"]["prompt_tokens"] == 3
    assert reply["usage"]["completion_tokens"] > 0
    assert counts == {messages_key(messages): 2, "sample-7": 1}


def test_judge_prompts_get_a_valid_seven_score_verdict() -> None:
    with OpenAIDouble() as server:
        _, _, body = post(server.base_url, [{"role": "user", "content": 'Rate it. Keys: "Guidance", ...'}])
    verdict = json.loads(json.loads(body)["choices"][0]["message"]["content"])
    assert set(verdict) == {
        "Guidance",
        "Informativeness",
        "Relevance",
        "Safety",
        "Empathy",
        "Helpfulness",
        "Understanding",
        "Overall",
        "Explanation",
    }
    assert all(1 <= score <= 5 for name, score in verdict.items() if name != "Explanation")


def test_fault_choice_is_deterministic_and_follows_the_fractions() -> None:
    faults = Faults(http_5xx=0.2, http_429=0.1, timeout=0.05, malformed=0.05)
    drawn = [choose_fault(faults, 1, f"k{i}", 1) for i in range(4000)]
    assert drawn == [choose_fault(faults, 1, f"k{i}", 1) for i in range(4000)]
    share = {name: drawn.count(name) / len(drawn) for name in ("http_5xx", "http_429", "timeout", "malformed")}
    assert share["http_5xx"] == pytest.approx(0.2, abs=0.03)
    assert share["http_429"] == pytest.approx(0.1, abs=0.03)
    assert share["timeout"] == pytest.approx(0.05, abs=0.02)
    assert share["malformed"] == pytest.approx(0.05, abs=0.02)


def test_faults_can_be_limited_to_the_first_attempts() -> None:
    faults = Faults(http_5xx=1.0, fault_attempts=2)
    assert [choose_fault(faults, 0, "k", attempt) for attempt in (1, 2, 3, 4)] == ["http_5xx", "http_5xx", None, None]


def test_fractions_above_one_are_rejected() -> None:
    with pytest.raises(ValueError):
        Faults(http_5xx=0.8, http_429=0.3)


def test_429_carries_retry_after_and_malformed_bodies_are_not_json() -> None:
    with OpenAIDouble(faults=Faults(http_429=1.0, retry_after=1.5, fault_attempts=1)) as server:
        status, headers, _ = post(server.base_url, [{"role": "user", "content": "x"}])
        assert (status, headers.get("Retry-After")) == (429, "1.5")
        assert post(server.base_url, [{"role": "user", "content": "x"}])[0] == 200
    with OpenAIDouble(faults=Faults(malformed=1.0)) as server:
        status, _, body = post(server.base_url, [{"role": "user", "content": "x"}])
    assert status == 200
    with pytest.raises(json.JSONDecodeError):
        json.loads(body)


def test_subprocess_mode_serves_and_reports_counts() -> None:
    messages = [{"role": "user", "content": "hello"}]
    with OpenAIDouble(latency=0.01, in_process=False) as server:
        assert post(server.base_url, messages)[0] == 200
        assert server.request_counts == {messages_key(messages): 1}
        assert server.outcomes == {"ok": 1}
