"""The engine against the loopback double: faults, retries, Retry-After, timeouts, cache."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.doubles.openai_double import Faults, OpenAIDouble
from trustmh.bulk.backends import OpenAIBackend
from trustmh.bulk.cache import CompletionCache
from trustmh.bulk.engine import BulkEngine
from trustmh.bulk.request import ChatOutcome, ChatRequest, GenerationParams
from trustmh.bulk.retry import RetryPolicy

MODEL = "openai/double"
FAST_RETRIES = RetryPolicy(max_attempts=8, base_delay=0.01, max_delay=0.05)


def requests(count: int) -> list[ChatRequest]:
    return [ChatRequest(MODEL, ({"role": "user", "content": f"message number {i}"},)) for i in range(count)]


def run_engine(
    base_url: str,
    items: list[ChatRequest],
    cache: CompletionCache | None = None,
    policy: RetryPolicy = FAST_RETRIES,
    timeout: float = 10.0,
    max_connections: int = 16,
) -> tuple[list[ChatOutcome], BulkEngine]:
    async def main() -> tuple[list[ChatOutcome], BulkEngine]:
        backend = OpenAIBackend(base_url, "sk-unused", timeout, max_connections)
        engine = BulkEngine({MODEL: backend}, cache, max_connections, policy, seed=0)
        try:
            return await engine.run_jobs(items, engine.complete), engine
        finally:
            await engine.close()

    return asyncio.run(main())


def test_fault_mix_completes_and_every_item_is_answered() -> None:
    faults = Faults(http_5xx=0.2, http_429=0.1, timeout=0.05, malformed=0.05, retry_after=0.05, hang_seconds=5)
    with OpenAIDouble(latency=0.01, faults=faults, seed=1) as server:
        outcomes, engine = run_engine(server.base_url, requests(200), timeout=1.5, max_connections=32)
        seen = server.outcomes
    assert all(o.completion is not None for o in outcomes)
    assert [o.text for o in outcomes] == [f"I hear you. You said: message number {i}" for i in range(200)]
    # Every fault kind happened and was retried; retries are counted by kind.
    assert {"http_5xx", "http_429", "timeout", "malformed"} <= set(seen)
    reasons = engine.stats.retry_reasons
    assert (reasons["HTTP 503"], reasons["HTTP 429"], reasons["malformed response body"]) == (
        seen["http_5xx"],
        seen["http_429"],
        seen["malformed"],
    )
    # On a loaded machine an ordinary reply may also exceed the timeout: at least one per hang.
    assert reasons["timeout"] >= seen["timeout"]
    assert engine.stats.failures == 0


def test_exhausted_retries_leave_an_error_with_its_reason_and_are_counted() -> None:
    with OpenAIDouble(faults=Faults(http_5xx=1.0)) as server:
        outcomes, engine = run_engine(
            server.base_url, requests(5), policy=RetryPolicy(max_attempts=3, base_delay=0.001)
        )
        counts = server.request_counts
    assert all(o.completion is None for o in outcomes)
    assert all(o.error and "gave up after 3 attempts" in o.error and "HTTP 503" in o.error for o in outcomes)
    assert engine.stats.failures == 5
    assert engine.stats.failure_reasons == {"HTTP 503": 5}  # the last error's kind, not "gave up"
    assert sorted(counts.values()) == [3] * 5


def test_retry_after_is_honoured() -> None:
    faults = Faults(http_429=1.0, retry_after=0.6, fault_attempts=1)
    with OpenAIDouble(faults=faults) as server:
        outcomes, _ = run_engine(server.base_url, requests(4), policy=RetryPolicy(base_delay=0.001))
        times = dict(server.state.request_times)
    assert all(o.completion is not None and o.attempts == 2 for o in outcomes)
    for first, second in times.values():
        # Our own backoff would be ~1 ms; the server asked for 0.6 s.
        assert second - first >= 0.55


def test_a_hung_request_times_out_and_is_retried() -> None:
    with OpenAIDouble(faults=Faults(timeout=1.0, hang_seconds=6, fault_attempts=1)) as server:
        outcomes, engine = run_engine(server.base_url, requests(3), timeout=1.0)
    assert all(o.completion is not None for o in outcomes)
    assert set(engine.stats.retry_reasons) == {"timeout"} and engine.stats.retry_reasons["timeout"] >= 3


def test_cache_makes_a_second_run_free(tmp_path: Path) -> None:
    with OpenAIDouble() as server:
        cache = CompletionCache(tmp_path / "cache.sqlite")
        first, engine = run_engine(server.base_url, requests(50), cache)
        cache.close()
        cache = CompletionCache(tmp_path / "cache.sqlite")
        second, again = run_engine(server.base_url, requests(50), cache)
        cache.close()
        counts = server.request_counts
    assert [o.text for o in first] == [o.text for o in second]
    assert sorted(set(counts.values())) == [1]
    assert again.stats.cache_hits == 50 and again.stats.fresh_successes == 0
    assert again.stats.cached_input_tokens == engine.stats.input_tokens > 0
    # Commits are batched: far fewer transactions than rows.
    assert engine.cache is not None and engine.cache.commits < 50


def test_failed_calls_are_not_cached(tmp_path: Path) -> None:
    cache = CompletionCache(tmp_path / "cache.sqlite")
    with OpenAIDouble(faults=Faults(http_5xx=1.0)) as server:
        run_engine(server.base_url, requests(3), cache, policy=RetryPolicy(max_attempts=1))
    assert cache.count() == 0
    cache.close()


def test_usage_is_summed_and_priced() -> None:
    with OpenAIDouble() as server:
        outcomes, engine = run_engine(server.base_url, requests(10))
    assert engine.stats.input_tokens == sum(o.completion.input_tokens for o in outcomes if o.completion)
    assert engine.stats.output_tokens == sum(o.completion.output_tokens for o in outcomes if o.completion)
    expected = (engine.stats.input_tokens * 2.5 + engine.stats.output_tokens * 10) / 1e6
    assert engine.stats.cost(2.5, 10) == expected
    assert engine.stats.cost(None, None) is None


def test_cache_key_depends_on_model_messages_and_every_parameter() -> None:
    messages = ({"role": "user", "content": "hi"},)
    base = ChatRequest(MODEL, messages, GenerationParams())
    assert base.cache_key() == ChatRequest(MODEL, ({"content": "hi", "role": "user"},), GenerationParams()).cache_key()
    variants = [
        ChatRequest("openai/other", messages),
        ChatRequest(MODEL, ({"role": "user", "content": "hi!"},)),
        ChatRequest(MODEL, ({"role": "system", "content": "hi"},)),
        ChatRequest(MODEL, messages, GenerationParams(max_tokens=511)),
        ChatRequest(MODEL, messages, GenerationParams(temperature=0.0)),
        ChatRequest(MODEL, messages, GenerationParams(top_p=0.9)),
        ChatRequest(MODEL, messages, GenerationParams(seed=1)),
    ]
    keys = {base.cache_key()} | {v.cache_key() for v in variants}
    assert len(keys) == len(variants) + 1


def test_cache_key_is_the_hash_of_the_whole_request_as_canonical_json() -> None:
    """Keys of caches written before the messages' JSON was reused: they must not change."""
    import hashlib
    import json

    from trustmh.bulk.batch_openai import _batch_line

    messages = (
        {"role": "user", "content": 'h\u00e9 "quoted"\n\u2028 {x}'},
        {"role": "assistant", "content": "a", "name": "z"},
    )
    plain = ({"role": "user", "content": 'plain "ascii"\n\t\x01 {x} \\'},)
    with_del = ({"role": "user", "content": "ascii with DEL \x7f"},)
    cases = [
        (m, p)
        for m in (messages, plain, with_del)
        for p in (GenerationParams(), GenerationParams(top_p=0.5, seed=None, temperature=0.0))
    ]
    for messages, params in cases:
        request = ChatRequest("openai/gpt-\u00e9", messages, params)
        whole = {"model": request.model, "messages": list(messages), "params": params.as_dict()}
        canonical = json.dumps(whole, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        assert request.cache_key() == hashlib.sha256(canonical.encode("utf-8")).hexdigest()
        line = json.loads(_batch_line(request.cache_key(), request))
        assert line == {
            "custom_id": request.cache_key(),
            "method": "POST",
            "url": "/v1/chat/completions",
            "body": {"model": "gpt-\u00e9", "messages": list(messages), **params.as_dict()},
        }


def test_backoff_is_jittered_exponential_and_bounded() -> None:
    import random

    policy = RetryPolicy(base_delay=1.0, max_delay=8.0, max_retry_after=60)
    rng = random.Random(0)
    delays = [policy.delay(attempt, None, rng) for attempt in range(1, 10) for _ in range(50)]
    assert max(delays) <= 8.0 and min(delays) >= 0
    assert len(set(delays)) > 100  # jitter: not all the same
    assert policy.delay(1, 30.0, rng) == 30.0
    assert policy.delay(1, 1e6, rng) == 60.0


def test_identical_calls_in_flight_together_are_sent_once(tmp_path: Path) -> None:
    same = [ChatRequest(MODEL, ({"role": "user", "content": "duplicate row"},)) for _ in range(5)]
    with OpenAIDouble(latency=0.1) as server:
        outcomes, engine = run_engine(server.base_url, same + requests(3), CompletionCache(tmp_path / "c.sqlite"))
        counts = server.request_counts
    assert sum(counts.values()) == 4
    assert len({o.text for o in outcomes[:5]}) == 1 and outcomes[0].completion is not None
    assert engine.stats.deduplicated == 4 and engine.stats.fresh_successes == 4


def test_reply_bodies_are_classified() -> None:
    import pytest

    from trustmh.bulk.backends import completion_from_body
    from trustmh.bulk.retry import PermanentError, RetryableError

    good = {
        "choices": [{"message": {"content": "hi"}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 3, "completion_tokens": 1},
    }
    assert completion_from_body(good).text == "hi"
    assert completion_from_body(good).input_tokens == 3
    for malformed in (
        {},
        {"choices": []},
        {"choices": [{}]},
        [],
        {"choices": [{"message": {}}], "usage": {"prompt_tokens": "x"}},
    ):
        with pytest.raises(RetryableError):
            completion_from_body(malformed)
    with pytest.raises(PermanentError, match="content_filter"):
        completion_from_body({"choices": [{"message": {"content": None}, "finish_reason": "content_filter"}]})


def test_a_run_collects_garbage_less_often_and_restores_the_collector() -> None:
    import gc

    import pytest

    from trustmh.bulk.session import GC_THRESHOLD, fewer_collections

    before = gc.get_threshold()
    with pytest.raises(RuntimeError), fewer_collections():
        assert gc.get_threshold()[0] >= GC_THRESHOLD and gc.get_threshold()[1:] == before[1:]
        raise RuntimeError("the run failed")
    assert gc.get_threshold() == before


def test_many_jobs_start_in_slices_and_all_finish_in_order() -> None:
    """More jobs than one slice of workers (engine.WORKER_SLICE): every result, in order."""
    from trustmh.bulk.engine import WORKER_SLICE

    engine = BulkEngine({}, None, max_connections=10_000)
    count = 3 * WORKER_SLICE + 7

    async def job(item: int) -> int:
        await asyncio.sleep(0)
        return item * 2

    assert asyncio.run(engine.run_jobs(list(range(count)), job)) == [i * 2 for i in range(count)]
