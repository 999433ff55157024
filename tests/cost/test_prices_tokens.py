"""Price table lookups, ``--prices`` files, token counts and the estimate table."""

from __future__ import annotations

from pathlib import Path

import pytest

from trustmh.core.errors import UserError
from trustmh.cost.estimate import Estimate
from trustmh.cost.prices import PriceTable
from trustmh.cost.tokens import ESTIMATE_METHOD, TokenCounter, estimate_prompt_tokens, worst_case_prompt_tokens


def test_price_lookup_exact_versioned_local_and_unknown():
    table = PriceTable.load()
    assert table.price("openai/gpt-4o").input == 2.5
    assert table.price("openai/gpt-4o-2024-08-06").output == 10.0  # version suffix
    assert table.price("openai/gpt-4o-mini").input == 0.15  # the longer name wins over gpt-4o
    assert table.price("trustmh/smollm2").cost(10**6, 10**6) == 0.0
    assert table.price("vllm/meta-llama/Llama-3-8B").source == "local"
    assert table.price("openai/my-finetune") is None
    assert table.price("trustmh/http/bot") is None  # someone's product: no price assumed


def test_prices_file_overrides_and_adds(tmp_path: Path):
    path = tmp_path / "prices.yaml"
    path.write_text("openai/gpt-4o: {input: 1.25, output: 5}\nopenai/my-finetune: {input: 3, output: 12}\n")
    table = PriceTable.load(path)
    assert table.price("openai/gpt-4o").input == 1.25 and table.price("openai/gpt-4o").source == str(path)
    assert table.price("openai/my-finetune").cost(1_000_000, 0) == 3.0


def test_batch_price_is_the_share_of_the_price_overridable_per_model(tmp_path: Path):
    table = PriceTable.load()
    batch = table.price("openai/gpt-4o").for_batch()
    assert (batch.input, batch.output, batch.batch_share) == (1.25, 5.0, 0.5) and "batch" in batch.source
    assert table.price("anthropic/claude-sonnet-4-5").for_batch().output == 7.5
    assert table.price("google/gemini-2.5-pro").batch_share is None  # none known: the full price
    assert table.price("google/gemini-2.5-pro").for_batch() == table.price("google/gemini-2.5-pro")
    assert table.price("trustmh/smollm2").for_batch().cost(10**6, 10**6) == 0.0
    path = tmp_path / "prices.yaml"
    path.write_text("openai/gpt-4o: {input: 2, output: 8, batch: 0.25}\nanthropic/mine: {input: 4, output: 8}\n")
    table = PriceTable.load(path)
    assert table.price("openai/gpt-4o").for_batch().cost(10**6, 10**6) == 2.5  # (2 + 8) x 0.25
    assert table.price("anthropic/mine").batch_share == 0.5  # the provider's share unless the entry says


@pytest.mark.parametrize(
    "text,expected",
    [
        ("openai/x: {input: 1, output: 2, batch: 0}\n", "field 'batch': expected the batch price's share"),
        ("openai/x: {input: 1, output: 2, batch: 1.5}\n", "field 'batch'"),
        ("openai/x: {input: 1, output: 2, discount: 0.5}\n", "optionally batch: SHARE"),
        ("openai/x: {input: 1}\n", "entry 'openai/x': expected {input: N, output: N}"),
        ("openai/x: {input: -1, output: 2}\n", "entry 'openai/x', field 'input': expected a non-negative number"),
        ("openai/x: {input: yes, output: 2}\n", "field 'input'"),
        ("[1, 2]\n", "expected a mapping"),
        ("a: [\n", "invalid YAML or JSON"),
    ],
)
def test_bad_prices_file_is_one_line(tmp_path: Path, text: str, expected: str):
    path = tmp_path / "prices.yaml"
    path.write_text(text)
    with pytest.raises(UserError) as error:
        PriceTable.load(path)
    assert str(path) in str(error.value) and expected in str(error.value)


def test_estimates_and_worst_case_bound():
    messages = [{"role": "system", "content": "x" * 40}, {"role": "user", "content": "é" * 10}]
    assert estimate_prompt_tokens(messages) == 10 + 4 + 3 + 4
    assert worst_case_prompt_tokens(messages) == 40 + 20 + 16  # bytes, not characters
    assert TokenCounter("openai/gpt-4o").method == ESTIMATE_METHOD


def test_embedded_model_is_counted_with_its_own_tokenizer():
    counter = TokenCounter("trustmh/smollm2")
    assert counter.method.startswith("tokenizer")
    # a word the vocabulary holds whole: one token each, plus the chat formatting
    assert counter.count([{"role": "user", "content": " hello" * 10}]) == 10 + 4


def test_estimate_rows_costs_and_cached_requests():
    estimate = Estimate(PriceTable.load())
    messages = [{"role": "user", "content": "x" * 400}]
    for cached in (False, False, True):
        estimate.add("openai/gpt-4o", "judge", messages, 500, cached=cached)
    estimate.add("openai/unknown-model", "generate", messages, 100)
    row = estimate.rows[("openai/gpt-4o", "judge")]
    assert (row.requests, row.cached, row.prompt_tokens, row.max_completion_tokens) == (3, 1, 208, 1000)
    assert row.cost == pytest.approx((208 * 2.5 + 1000 * 10) / 1e6)
    assert estimate.total_cost is None  # one model has no price: the total is unknown, not low
    assert any("no price known for openai/unknown-model" in line for line in estimate.footnotes())
