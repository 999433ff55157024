"""Greedy calls decoded together give what one-at-a-time decoding gives (issue 26, item 2).

The model tests use the shipped GGUF for real, each with its own ``EmbeddedLlama``: one decoding
calls one at a time (``batch=0``, llama-cpp-python's ``create_chat_completion``), one decoding the
calls waiting together in its batch context.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from trustmh.core.errors import UserError
from trustmh.models.batching import DEFAULT_SEQUENCES, batch_sequences, restream
from trustmh.models.completion import Completion, Plan, effective_max_tokens
from trustmh.models.llama import EmbeddedLlama, smollm2_path


def test_the_switch_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRUSTMH_LLAMA_BATCH", raising=False)
    assert batch_sequences() == DEFAULT_SEQUENCES
    monkeypatch.setenv("TRUSTMH_LLAMA_BATCH", "0")
    assert batch_sequences() == 0
    monkeypatch.setenv("TRUSTMH_LLAMA_BATCH", "8")
    assert batch_sequences() == 8
    for bad in ("on", "-2"):
        monkeypatch.setenv("TRUSTMH_LLAMA_BATCH", bad)
        with pytest.raises(UserError, match="TRUSTMH_LLAMA_BATCH"):
            batch_sequences()


def u32(*values: int) -> bytes:
    return b"".join(value.to_bytes(4, "little") for value in values)


def test_a_sequence_state_moves_between_one_stream_and_several() -> None:
    tag, cells = u32(0xAF143CD8), u32(3) + b"meta and KV rows"  # format tag; cell count, then the cells
    alone = tag + u32(0) + u32(1) + cells  # sequence 0, one stream
    in_stream_2 = tag + u32(2) + u32(4) + u32(0, 0) + cells + u32(0)  # sequence 2; streams 0, 1 and 3 empty
    assert restream(alone, 1, 4, 2) == in_stream_2
    assert restream(in_stream_2, 4, 1, 2) == alone
    with pytest.raises(ValueError, match="4 KV streams"):
        restream(in_stream_2, 1, 4, 2)
    with pytest.raises(ValueError, match="more than one"):
        restream(tag + u32(2) + u32(4) + u32(0, 5) + cells + u32(0), 4, 1, 2)


def test_max_tokens_is_cut_to_the_context_as_llama_cpp_python_does() -> None:
    assert effective_max_tokens(32, 100, 8192) == 32
    assert effective_max_tokens(8100, 100, 8192) == 8092
    assert effective_max_tokens(None, 100, 8192) == effective_max_tokens(0, 100, 8192) == 8092


class ByteTokens:
    """A stand-in vocabulary: token n is ``pieces[n]``; token 0 ends generation."""

    def __init__(self, *pieces: bytes) -> None:
        self.pieces = pieces
        self._model = type("Model", (), {"vocab": None})()

    def detokenize(self, tokens: list[int], prev_tokens: list[int] | None = None) -> bytes:
        return b"".join(self.pieces[token] for token in tokens)

    @staticmethod
    def is_eog(vocab: Any, token: int) -> bool:
        return token == 0


def decode(vocabulary: ByteTokens, tokens: list[int], max_tokens: int, stops: tuple[bytes, ...] = ()) -> Completion:
    completion = Completion(Plan((1, 2), max_tokens, stops))
    for token in tokens:
        if completion.feed(token, vocabulary, vocabulary.is_eog):
            return completion
    raise AssertionError("the completion did not finish")


def test_a_completion_stops_as_llama_cpp_python_stops() -> None:
    words = ByteTokens(b"<end>", b"Hel", b"lo", b" there", b"STOP", b" friend", b"lo friend")
    assert decode(words, [1, 2, 0], 10).text == b"Hello" and decode(words, [1, 2, 0], 10).finish_reason == "stop"
    cut = decode(words, [1, 2, 3, 4, 5], 10, stops=(b" friend", b"STOP"))
    assert (cut.text, cut.finish_reason, cut.tokens) == (b"Hello there", "stop", [1, 2, 3, 4])
    # Of two stop strings found at once, the first listed cuts, not the first in the text.
    assert decode(words, [1, 6], 10, stops=(b" friend", b"lo")).text == b"Hello"
    longest = decode(words, [1, 2, 3], 2)
    assert (longest.text, longest.finish_reason, len(longest.tokens)) == (b"Hello", "length", 2)


def test_an_answer_runs_past_max_tokens_to_finish_a_character() -> None:
    # "ab€" in three pieces, the euro sign's three bytes cut after its first and second byte:
    # llama-cpp-python holds the answer back (no stop or length check) until the character is whole.
    euro = ByteTokens(b"<end>", b"ab\xe2", b"\x82", b"\xac", b"!")
    completion = decode(euro, [1, 2, 3, 4], 1)
    assert (completion.text.decode(), completion.finish_reason, completion.tokens) == ("ab€", "length", [1, 2, 3])


SYSTEM = "You answer people who write to a support line, briefly and kindly. " * 5
CALLS: list[tuple[list[dict[str, str]], int, list[str] | None]] = [
    ([{"role": "user", "content": "Name three ways to calm down before an exam."}], 32, None),
    ([{"role": "system", "content": SYSTEM}, {"role": "user", "content": "I can't sleep at night."}], 32, None),
    ([{"role": "user", "content": "Reply with one word, yes or no: is water wet?"}], 32, None),
    ([{"role": "user", "content": "Count from one to twenty in words, separated by commas."}], 32, [", ten"]),
    (
        [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "My friend stopped talking to me."}],
        12,
        None,
    ),
    ([{"role": "user", "content": "Write a long story about a lighthouse keeper. " * 3}], 32, None),
]


def answer_all(model: EmbeddedLlama, calls: list = CALLS, temperature: float = 0.0, seed: int | None = None) -> list:
    """Every call sent at once, as inspect's samples send them."""

    async def send_all() -> list:
        return await asyncio.gather(
            *(model.achat(messages, tokens, temperature, seed=seed, stop=stop) for messages, tokens, stop in calls)
        )

    return asyncio.run(send_all())


def summary(results: list) -> list[tuple[str, int, int, str]]:
    return [(r.text, r.input_tokens, r.output_tokens, r.finish_reason) for r in results]


def count_steps(model: EmbeddedLlama, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Records how many sequences each step of the batch decoder carried."""
    from trustmh.models.batching import BatchDecoder

    carried: list[int] = []
    step = BatchDecoder.step

    def counting(self: BatchDecoder) -> list:
        carried.append(self.active)
        return step(self)

    monkeypatch.setattr(BatchDecoder, "step", counting)
    return carried


def one_at_a_time_calls(model: EmbeddedLlama, monkeypatch: pytest.MonkeyPatch) -> list:
    served: list = []
    complete = model._complete

    def recording(request: Any) -> Any:
        served.append(request)
        return complete(request)

    monkeypatch.setattr(model, "_complete", recording)
    return served


@pytest.fixture(scope="module")
def one_at_a_time() -> list:
    model = EmbeddedLlama(smollm2_path(), cache_mb=0, batch=0)
    try:
        return answer_all(model)
    finally:
        model.close()


@pytest.mark.slow
def test_calls_decoded_together_give_the_one_at_a_time_answers(
    one_at_a_time: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = EmbeddedLlama(smollm2_path(), cache_mb=0, batch=4)
    carried = count_steps(model, monkeypatch)
    single = one_at_a_time_calls(model, monkeypatch)
    try:
        together = answer_all(model)
    finally:
        model.close()
    assert summary(together) == summary(one_at_a_time)
    # Different prompts, lengths, token limits, a stop string and an early end, decoded together.
    assert {r.finish_reason for r in one_at_a_time} == {"stop", "length"}
    assert max(carried) == 4 and len(single) <= 1  # the first call may start before the others arrive
    assert all(0 <= r.cached_input_tokens < r.input_tokens for r in together)


@pytest.mark.slow
def test_prefix_reuse_is_kept_when_decoding_together(one_at_a_time: list, monkeypatch: pytest.MonkeyPatch) -> None:
    model = EmbeddedLlama(smollm2_path(), cache_mb=64, batch=4)
    carried = count_steps(model, monkeypatch)
    try:
        first = model.chat(CALLS[1][0], CALLS[1][1], 0.0)  # one at a time: its state is stored
        together = answer_all(model, CALLS[:1] + CALLS[2:])
        # A conversation's next turn after an answer decoded together: the one-at-a-time path
        # restores the state the batch decoder stored.
        messages, tokens, _ = CALLS[4]
        next_turn = [*messages, {"role": "assistant", "content": together[3].text}, {"role": "user", "content": "Why?"}]
        follow = model.chat(next_turn, 8, 0.0)
    finally:
        model.close()
    plain = EmbeddedLlama(smollm2_path(), cache_mb=0, batch=0)
    try:
        expected_follow = plain.chat(next_turn, 8, 0.0)
    finally:
        plain.close()
    assert max(carried) >= 2
    assert summary([first, *together]) == summary(one_at_a_time[1:2] + one_at_a_time[:1] + one_at_a_time[2:])
    # The call sharing the first one's system prompt restored it instead of prefilling it again.
    system_tokens = first.input_tokens - 20
    assert together[3].cached_input_tokens >= system_tokens
    assert summary([follow]) == summary([expected_follow])
    assert follow.cached_input_tokens >= together[3].input_tokens


@pytest.mark.slow
def test_sampled_calls_and_the_switch_go_one_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    sampled = EmbeddedLlama(smollm2_path(), cache_mb=0, batch=4)
    carried = count_steps(sampled, monkeypatch)
    served = one_at_a_time_calls(sampled, monkeypatch)
    calls = [(messages, 6, stop) for messages, _, stop in CALLS[:3]]
    try:
        results = answer_all(sampled, calls, temperature=0.7, seed=3)
    finally:
        sampled.close()
    assert len(served) == 3 and carried == [] and all(r.output_tokens > 0 for r in results)
    monkeypatch.setenv("TRUSTMH_LLAMA_BATCH", "0")
    off = EmbeddedLlama(smollm2_path(), cache_mb=0)
    served = one_at_a_time_calls(off, monkeypatch)
    try:
        answer_all(off, calls)
    finally:
        off.close()
    assert len(served) == 3 and carried == []
