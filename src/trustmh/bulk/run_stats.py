"""What one bulk run counted: calls, cache hits, retries, failures and token usage.

Its own module so the engine (which fills it) and the progress bar (which shows it) both
import it without importing each other.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any


@dataclass
class RunStats:
    """Counts and usage of one run. Tokens of cache hits are kept apart: they cost nothing now."""

    calls: int = 0
    cache_hits: int = 0
    deduplicated: int = 0  # identical calls that waited for one already in flight
    fresh_successes: int = 0
    failures: int = 0
    retries: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cached_input_tokens: int = 0
    cached_output_tokens: int = 0
    retry_reasons: Counter[str] = field(default_factory=Counter)
    failure_reasons: Counter[str] = field(default_factory=Counter)
    first_request_at: float | None = None
    last_response_at: float | None = None

    def cost(self, price_in: float | None, price_out: float | None) -> float | None:
        """Cost in currency units of this run's fresh calls, prices given per 1M tokens."""
        if price_in is None and price_out is None:
            return None
        return (self.input_tokens * (price_in or 0.0) + self.output_tokens * (price_out or 0.0)) / 1_000_000

    def as_dict(self, price_in: float | None = None, price_out: float | None = None) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "cache_hits": self.cache_hits,
            "deduplicated": self.deduplicated,
            "fresh_successes": self.fresh_successes,
            "failures": self.failures,
            "retries": self.retries,
            "retry_reasons": dict(self.retry_reasons),
            "failure_reasons": dict(self.failure_reasons),
            "tokens": {
                "input": self.input_tokens,
                "output": self.output_tokens,
                "cached_input": self.cached_input_tokens,
                "cached_output": self.cached_output_tokens,
            },
            "cost": self.cost(price_in, price_out),
            "price_per_million": {"input": price_in, "output": price_out},
        }
