"""Prices per million tokens, built in and overridable with ``--prices FILE``.

The built-in table holds public list prices in USD (standard, non-batch tier) as published
by the providers in 2025; they change, so every printed estimate names its source and a
team should pass its own contract prices with ``--prices``. Models served locally (the
embedded model, vLLM, Ollama, Hugging Face, SGLang, llama.cpp) cost nothing per token.

A ``--prices`` file is YAML or JSON: ``{"openai/gpt-4o": {"input": 2.5, "output": 10}}``
(per million tokens); its entries replace or add to the built-in ones. An entry may add
``batch``: the share of those prices a provider's batch API charges (``0.5`` = half).

A price is a finite number of at least 0, wherever it comes from (a ``--prices`` file, a
command-line price option, an entry of the table): a NaN compares false with every cap, so
``--max-cost`` would never stop, and an infinite or negative price makes every sum meaningless.
Each is refused with one line naming the file or option and the field (:func:`check_amount`).

Batched requests (``--batch``) are priced at the batch price: the list price times the
model's batch share. OpenAI Batch and Anthropic Message Batches charge 50% of the standard
price, so every ``openai/`` and ``anthropic/`` model has a share of 0.5 unless its entry
says otherwise; other models have none (a batched request of theirs is priced at the list
price, and the estimate says so).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from trustmh.core.errors import DataFormatError
from trustmh.data.readers import read_text

LOCAL_PROVIDERS = ("trustmh", "vllm", "ollama", "hf", "sglang", "llama-cpp-python", "transformer_lens", "mockllm")


@dataclass(frozen=True)
class Price:
    input: float  # per million prompt tokens
    output: float  # per million completion tokens
    source: str  # "built-in list price", "local", or the --prices file
    batch_share: float | None = None  # of these prices, charged by the provider's batch API; None: unknown

    def __post_init__(self) -> None:
        for side in ("input", "output"):
            check_amount(getattr(self, side), f"price of {side} tokens ({self.source})")
        share = self.batch_share
        if share is not None and not (math.isfinite(share) and 0 < share <= 1):
            raise ValueError(f"batch share ({self.source}): expected a number in (0, 1], not {share!r}")

    def cost(self, input_tokens: float, output_tokens: float) -> float:
        return (input_tokens * self.input + output_tokens * self.output) / 1_000_000

    def for_batch(self) -> Price:
        """The price of a request sent through the provider's batch API (itself if no share is known)."""
        if self.batch_share is None or self.batch_share == 1.0:
            return self
        share = self.batch_share
        return Price(self.input * share, self.output * share, f"{self.source} x {share:g} (batch)", share)


AMOUNT_EXPECTED = "expected a non-negative number (finite)"


def is_amount(value: object) -> bool:
    """A price or a cap in USD: a real number (not a bool), finite and not negative."""
    return not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value) and value >= 0


def check_amount(value: float, what: str) -> float:
    """``value`` if :func:`is_amount`, else ``ValueError`` naming ``what`` (see the module docstring)."""
    if not is_amount(value):
        raise ValueError(f"{what}: {AMOUNT_EXPECTED}; found {value!r}")
    return value


def call_price(price: Price | None, batched: bool) -> Price | None:
    """What one call is priced at: the batch price when it goes through a provider's batch API,
    else ``price`` (the list price). The one place this is decided, for the dry runs (``run``,
    ``generate``, ``judge``) and the caps of ``run`` and of the bulk engine alike."""
    return price.for_batch() if batched and price is not None else price


# Share of the standard price charged for a batched request, by provider (both "50% off").
BATCH_SHARES = {"openai": 0.5, "anthropic": 0.5}


def default_batch_share(model: str) -> float | None:
    return BATCH_SHARES.get(model.split("/", 1)[0])


BUILT_IN: dict[str, tuple[float, float]] = {
    "openai/gpt-4o": (2.50, 10.00),
    "openai/gpt-4o-mini": (0.15, 0.60),
    "openai/gpt-4.1": (2.00, 8.00),
    "openai/gpt-4.1-mini": (0.40, 1.60),
    "openai/gpt-4.1-nano": (0.10, 0.40),
    "openai/gpt-5": (1.25, 10.00),
    "openai/gpt-5-mini": (0.25, 2.00),
    "openai/gpt-5-nano": (0.05, 0.40),
    "openai/o3": (2.00, 8.00),
    "openai/o3-mini": (1.10, 4.40),
    "openai/o4-mini": (1.10, 4.40),
    "anthropic/claude-opus-4-1": (15.00, 75.00),
    "anthropic/claude-opus-4": (15.00, 75.00),
    "anthropic/claude-sonnet-4-5": (3.00, 15.00),
    "anthropic/claude-sonnet-4": (3.00, 15.00),
    "anthropic/claude-3-7-sonnet": (3.00, 15.00),
    "anthropic/claude-haiku-4-5": (1.00, 5.00),
    "anthropic/claude-3-5-haiku": (0.80, 4.00),
    "google/gemini-2.5-pro": (1.25, 10.00),
    "google/gemini-2.5-flash": (0.30, 2.50),
    "google/gemini-2.5-flash-lite": (0.10, 0.40),
}


class PriceTable:
    def __init__(self, entries: dict[str, Price]) -> None:
        for name, price in entries.items():  # a Price checks its numbers; this catches other objects
            if not isinstance(price, Price):
                raise TypeError(f"price table entry {name!r}: expected a Price, not {type(price).__name__}")
        self.entries = entries

    @classmethod
    def load(cls, path: str | Path | None = None) -> PriceTable:
        entries = {
            name: Price(i, o, "built-in list price", default_batch_share(name)) for name, (i, o) in BUILT_IN.items()
        }
        if path is not None:
            entries.update(read_prices(Path(path)))
        return cls(entries)

    def price(self, model: str) -> Price | None:
        """The model's price: exact name, else the longest table name it extends with a
        version suffix (``gpt-4o-2024-08-06`` → ``gpt-4o``); local providers cost 0."""
        if model in self.entries:
            return self.entries[model]
        provider = model.split("/", 1)[0]
        if provider in LOCAL_PROVIDERS and not model.startswith("trustmh/http"):
            return Price(0.0, 0.0, "local", 1.0)
        # openai-api/<service>/<model> and vendor-prefixed names are matched on the model part
        candidates = [name for name in self.entries if model.startswith(name + "-")]
        if candidates:
            return self.entries[max(candidates, key=len)]
        return None


def read_prices(path: Path) -> dict[str, Price]:
    import yaml

    try:
        raw = yaml.safe_load(read_text(path))
    except yaml.YAMLError:
        raise DataFormatError(path, None, "invalid YAML or JSON; expected {MODEL: {input: N, output: N}}") from None
    if not isinstance(raw, dict) or not raw:
        raise DataFormatError(path, None, "expected a mapping {MODEL: {input: N, output: N}} (USD per 1M tokens)")
    prices: dict[str, Price] = {}
    for model, entry in raw.items():
        where = f"entry {model!r}"
        if not isinstance(entry, dict) or not {"input", "output"} <= set(entry) <= {"input", "output", "batch"}:
            raise DataFormatError(
                path, where, "expected {input: N, output: N} (per million tokens), optionally batch: SHARE"
            )
        values = []
        for side in ("input", "output"):
            value = entry[side]
            if not is_amount(value):  # YAML reads .nan, .inf and 1.0e+400 as floats
                raise DataFormatError(
                    path, f"{where}, field {side!r}", f"{AMOUNT_EXPECTED}, USD per million tokens; found {value!r}"
                )
            values.append(float(value))
        share = entry.get("batch", default_batch_share(str(model)))
        if share is not None and (
            isinstance(share, bool)
            or not isinstance(share, (int, float))
            or not math.isfinite(share)
            or not 0 < share <= 1
        ):
            raise DataFormatError(
                path, f"{where}, field 'batch'", "expected the batch price's share of the price, in (0, 1], e.g. 0.5"
            )
        prices[str(model)] = Price(values[0], values[1], str(path), None if share is None else float(share))
    return prices
