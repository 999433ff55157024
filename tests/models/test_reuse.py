"""What the embedded model reuses between calls: KV prefixes and identical requests' answers.

The model tests use the shipped GGUF for real; each builds its own ``EmbeddedLlama`` so the
process-wide model (and what it has cached) is left alone.
"""

from __future__ import annotations

import pytest

from trustmh.core.errors import UserError
from trustmh.models.llama import EmbeddedLlama, smollm2_path
from trustmh.models.reuse import DEFAULT_CACHE_MB, AnswerCache, Request, cache_megabytes

SYSTEM = "You sort short messages sent to a support line into categories. " * 6
# Interleaved like the tasks of a run: two prompt families sharing a long prefix each,
# with an unrelated prompt in between, and one exact repeat at the end.
FIXED_SLICE = [
    [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "I can't sleep and my heart races."}],
    [{"role": "user", "content": "Describe a quiet lake in one sentence. " * 4 + "Be brief."}],
    [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "I drank far too much again last night."}],
    [{"role": "user", "content": "Describe a quiet lake in one sentence. " * 4 + "Be very brief."}],
    [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "Everything is fine, just tired."}],
    [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "I can't sleep and my heart races."}],
]


def request(temperature: float = 0.0, seed: int | None = None, text: str = "hi") -> Request:
    return Request((("user", text),), 16, temperature, None, seed, ())


def test_cache_size_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRUSTMH_LLAMA_CACHE_MB", raising=False)
    assert cache_megabytes() == DEFAULT_CACHE_MB
    monkeypatch.setenv("TRUSTMH_LLAMA_CACHE_MB", "0")
    assert cache_megabytes() == 0
    for bad in ("lots", "-1"):
        monkeypatch.setenv("TRUSTMH_LLAMA_CACHE_MB", bad)
        with pytest.raises(UserError, match="TRUSTMH_LLAMA_CACHE_MB"):
            cache_megabytes()


def test_answers_are_kept_only_for_deterministic_requests_and_capped() -> None:
    answers = AnswerCache(capacity=2)
    answers.put(request(temperature=0.7), "sampled")
    assert answers.get(request(temperature=0.7)) is None  # sampling: every call answers anew
    answers.put(request(temperature=0.7, seed=3), "seeded")
    assert answers.get(request(temperature=0.7, seed=3)) == "seeded"
    answers.put(request(text="a"), "A")
    answers.put(request(text="b"), "B")  # over capacity: the least recently used goes
    assert answers.get(request(temperature=0.7, seed=3)) is None
    assert (answers.get(request(text="a")), answers.get(request(text="b"))) == ("A", "B")
    assert AnswerCache(capacity=0).get(request()) is None


def test_superseded_states_are_dropped_first_when_the_store_is_full() -> None:
    from types import SimpleNamespace

    from trustmh.models.reuse import state_cache, superseded

    instructions = list(range(100, 160))
    assert superseded(instructions + [1, 2], instructions + [3])  # another item after the same instructions
    assert superseded([5, 6, 7], [5, 6, 7, 8, 9])  # a conversation's next turn
    assert not superseded([1, 2, 3, 4], [1, 9, 9, 9])  # a quarter shared: kept
    store = state_cache(1)
    state = SimpleNamespace(llama_state_size=300_000)  # three fit in 1 MB
    store[[1, 2, 3, 4]] = state
    store[instructions + [1]] = state
    store[instructions + [2]] = state  # supersedes the previous item; room for both
    assert list(store.cache_state) == [(1, 2, 3, 4), tuple(instructions + [1]), tuple(instructions + [2])]
    store[[7, 8]] = state  # full: the superseded item goes, not the least recently used state
    assert list(store.cache_state) == [(1, 2, 3, 4), tuple(instructions + [2]), (7, 8)]
    store[[7, 8, 9]] = state  # a state that is a prefix of the new one goes at once
    assert list(store.cache_state) == [(1, 2, 3, 4), tuple(instructions + [2]), (7, 8, 9)]
    # A superseded state restored since is kept like a new one: the least recently used goes.
    store = state_cache(1)
    store[instructions + [1]] = state
    store[instructions + [2]] = state  # supersedes item 1
    assert store[instructions + [1, 9]] is state  # item 1's state is the best match, restored
    store[[7, 8]] = state
    store[[4, 4]] = state
    assert list(store.cache_state) == [tuple(instructions + [1]), (7, 8), (4, 4)]
    assert state_cache(0) is None


def run_slice(model: EmbeddedLlama) -> list:
    return [model.chat(messages, 12, 0.0) for messages in FIXED_SLICE]


@pytest.fixture(scope="module")
def with_and_without_cache() -> tuple[list, list]:
    plain, cached = EmbeddedLlama(smollm2_path(), cache_mb=0), EmbeddedLlama(smollm2_path(), cache_mb=64)
    try:
        return run_slice(plain), run_slice(cached)
    finally:
        plain.close()
        cached.close()


@pytest.mark.slow
def test_reuse_leaves_greedy_outputs_unchanged(with_and_without_cache: tuple[list, list]) -> None:
    plain, cached = with_and_without_cache
    assert [r.text for r in cached] == [r.text for r in plain]
    assert [r.input_tokens for r in cached] == [r.input_tokens for r in plain]
    assert [r.output_tokens for r in cached] == [r.output_tokens for r in plain]


@pytest.mark.slow
def test_reused_prompt_tokens_are_counted(with_and_without_cache: tuple[list, list]) -> None:
    plain, cached = with_and_without_cache
    # Without stored states only the live context's prefix (the chat template's first
    # tokens) is shared between alternating families; the last call follows one of its family.
    assert all(r.cached_input_tokens < 20 for r in plain[1:5])
    assert plain[5].cached_input_tokens >= plain[0].input_tokens - 15
    # With them, the third call finds the first call's state: the system prompt is not prefilled again.
    system_tokens = cached[0].input_tokens - 15
    assert cached[2].cached_input_tokens >= system_tokens
    assert cached[3].cached_input_tokens >= cached[1].input_tokens - 8
    # The exact repeat is answered without running the model.
    assert cached[5].reused_answer and cached[5].cached_input_tokens == cached[5].input_tokens
    assert not any(r.reused_answer for r in cached[:5])
    assert all(0 <= r.cached_input_tokens <= r.input_tokens for r in cached)


def eval_slice(model: EmbeddedLlama, log_dir: str, monkeypatch: pytest.MonkeyPatch) -> list:
    """A base task and its robustness twin on a few starter items, as in one ``trustmh run``."""
    from inspect_ai import eval

    from trustmh.run.runner import build_tasks

    monkeypatch.setattr("trustmh.models.providers.shared_llama", lambda path=None: model)
    tasks = build_tasks(["crisis_classification", "robustness_crisis_classification"], "starter", None)
    return eval(tasks, model="trustmh/smollm2", limit=3, log_dir=log_dir, display="none", max_tasks=2)


@pytest.mark.slow
def test_a_run_gives_the_same_outputs_with_and_without_reuse(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    plain, cached = EmbeddedLlama(smollm2_path(), cache_mb=0), EmbeddedLlama(smollm2_path(), cache_mb=64)
    try:
        runs = [
            eval_slice(model, str(tmp_path / name), monkeypatch)
            for name, model in (("plain", plain), ("cached", cached))
        ]
    finally:
        plain.close()
        cached.close()
    outputs = [{(log.eval.task, s.id): s.output.completion for log in logs for s in log.samples} for logs in runs]
    # limit=3 per task: the base task's 3 items, the robustness task's first 3 variants.
    assert len(outputs[0]) == 3 + 3 and outputs[0] == outputs[1]
    usage = [[u for log in logs for u in log.stats.model_usage.values()] for logs in runs]
    read = [sum(u.input_tokens_cache_read or 0 for u in run) for run in usage]
    prompt = [sum(u.input_tokens for u in run) for run in usage]
    assert prompt[0] == prompt[1]
    # The robustness task's clean passes repeat the base task's requests: answered once. (The
    # task name is "trustmh/..." only once the entry point has registered the package, which
    # depends on what ran before in the session: compare the last part.)
    base_ids = {s.id for log in runs[1] for s in log.samples if log.eval.task.split("/")[-1] == "crisis_classification"}
    clean = {s.id for log in runs[1] for s in log.samples if str(s.id).endswith("@clean")}
    assert clean and {str(i).removesuffix("@clean") for i in clean} <= base_ids
    reused = [s for log in runs[1] for s in log.samples if (s.output.metadata or {}).get("trustmh_reused_answer")]
    # Tasks interleave, so either side of a pair may be the one asked first: each pair
    # (base item, its clean pass) has exactly one answer reused, and nothing else is.
    pairs = [str(s.id).removesuffix("@clean") for s in reused]
    assert sorted(pairs) == sorted(str(i).removesuffix("@clean") for i in clean)
    # A reused answer reports all its prompt tokens as read from the cache. (No bound on the
    # totals: without reuse, a clean pass that happens to follow its base call shares its live KV.)
    assert all(s.output.usage.input_tokens_cache_read == s.output.usage.input_tokens for s in reused)
    assert read[1] > 0


def run_all_at_once(model: EmbeddedLlama) -> tuple[list, list[str]]:
    """The fixed slice sent as concurrent asynchronous calls (as inspect's samples do), with the
    order in which the model's worker served them."""
    import asyncio

    served: list[str] = []
    complete = model._complete

    def recording(request: Request):
        served.append(request.messages[-1][1])
        return complete(request)

    model._complete = recording  # type: ignore[method-assign]

    async def send_all() -> list:
        return await asyncio.gather(*(model.achat(messages, 12, 0.0) for messages in FIXED_SLICE))

    return asyncio.run(send_all()), served


@pytest.mark.slow
def test_waiting_calls_sharing_a_prefix_run_back_to_back_with_unchanged_outputs(
    with_and_without_cache: tuple[list, list],
) -> None:
    plain, _ = with_and_without_cache
    users = [messages[-1]["content"] for messages in FIXED_SLICE]
    # One call at a time (batch=0): the order in which calls are served is what is checked here;
    # decoding calls together keeps it and the outputs (tests/models/test_batching.py).
    fifo = EmbeddedLlama(smollm2_path(), cache_mb=0, batch=0)
    ordered = EmbeddedLlama(smollm2_path(), cache_mb=64, batch=0)
    try:
        fifo_results, fifo_served = run_all_at_once(fifo)
        ordered_results, ordered_served = run_all_at_once(ordered)
    finally:
        fifo.close()
        ordered.close()
    # Reuse off: first come, first served, as before issue 17.
    assert fifo_served == users
    # Reuse on: the first call, then its exact repeat (answered from the answer cache), then the
    # rest of its family (sharing the long system prompt), then the others in arrival order.
    assert ordered_served[:2] == [users[0], users[5]]
    assert set(ordered_served[2:4]) == {users[2], users[4]}
    assert ordered_served[4:] == [users[1], users[3]]
    assert ordered_results[5].reused_answer
    # Greedy outputs do not depend on the order or on the reuse.
    assert [r.text for r in fifo_results] == [r.text for r in plain]
    assert [r.text for r in ordered_results] == [r.text for r in plain]
