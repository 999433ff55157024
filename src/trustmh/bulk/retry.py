"""When to retry a failed call and how long to wait first."""

from __future__ import annotations

import random
from dataclasses import dataclass


class RetryableError(Exception):
    """A failure worth retrying (429, 5xx, timeout, connection drop, malformed body).

    ``answered``: the server answered with an error status, so it did no billable work; any
    other failure (a timeout, a dropped connection, a body we could not read) may have been
    billed, and a cap counts it at its worst case (:meth:`trustmh.bulk.budget.Budget.settle_unknown`).
    """

    def __init__(self, reason: str, retry_after: float | None = None, answered: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after
        self.answered = answered


class PermanentError(Exception):
    """A failure that will not change on retry (400, 401, 404, ...)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with full jitter, overridden upwards by ``Retry-After``.

    Full jitter (uniform in ``[0, cap]``) spreads out the retries of 64 workers that failed
    together, so they do not hit a recovering server in one burst.
    """

    max_attempts: int = 6
    base_delay: float = 0.5
    max_delay: float = 30.0
    # A server asking for more than this is treated as asking for this: one absurd
    # Retry-After must not stall a run for hours.
    max_retry_after: float = 120.0

    def delay(self, failed_attempt: int, retry_after: float | None, rng: random.Random) -> float:
        """Seconds to wait after the ``failed_attempt``-th attempt (1-based) failed."""
        ceiling = min(self.max_delay, self.base_delay * 2 ** (failed_attempt - 1))
        backoff = rng.uniform(0, ceiling)
        if retry_after is not None:
            return max(min(retry_after, self.max_retry_after), backoff)
        return backoff


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header (delta-seconds form; HTTP dates are ignored)."""
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        return None
    return seconds if seconds >= 0 else None
