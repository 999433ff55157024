"""The order in which the embedded model serves waiting calls: longest reusable prefix first.

The tasks of a run send their calls concurrently (inspect keeps many samples in flight) and the
one embedded model serves them one at a time. Served first-come first-served, consecutive calls
mostly come from different tasks and share little; a prompt's prefix is only reused while its
KV state is still stored (:mod:`trustmh.models.reuse`). :class:`PrefixQueue` hands out instead
the waiting call that can reuse the most tokens right now — the one whose prompt shares the
longest token prefix with the live context or a stored state, or that will be answered from
the answer cache — so calls sharing a prefix (a task's instructions, a dialogue's variants, a
conversation's next turn) run back to back.

No call waits forever: one that has been passed over :data:`MAX_SKIPS` times, or
:data:`PATIENCE_PER_CALL_AHEAD` times as many as there were calls waiting when it arrived if that
is more, is served next (oldest first), so a call waits at most about three times as long as
first-come first-served would make it. Greedy outputs do not depend on the order
(tests/models/test_reuse.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

import numpy as np

T = TypeVar("T")

# A waiting call is served at the latest after this many other calls went before it: at about a
# second per call on 2 cores, well under a minute of extra wait.
MAX_SKIPS = 32
# ... or this many times the calls waiting when it arrived, if more. 2 rather than 1 (issue 17,
# third wave): families of calls sharing a prefix stay together longer (stand-in: 24,424 -> 24,253
# tokens prefilled); a call still waits at most about three times what first come first served
# would make it wait.
PATIENCE_PER_CALL_AHEAD = 2


def common_prefix(a: np.ndarray, b: np.ndarray) -> int:
    """Length of the common prefix of two token arrays."""
    length = min(len(a), len(b))
    differing = np.flatnonzero(a[:length] != b[:length])
    return int(differing[0]) if differing.size else length


@dataclass
class _Waiting(Generic[T]):
    item: T
    tokens: np.ndarray
    order: int
    patience: int
    skipped: int = 0
    # Best reusable prefix found so far, from which stored prefix, and which prefixes were compared.
    reuse: int = 0
    source: int | None = None
    compared: set[int] = field(default_factory=set)


class PrefixQueue(Generic[T]):
    """Waiting calls, taken longest-reusable-prefix first (see module docstring). Not thread-safe:
    the caller serialises ``put`` and ``take``."""

    def __init__(self, max_skips: int = MAX_SKIPS) -> None:
        self.max_skips = max_skips
        self._waiting: list[_Waiting[T]] = []
        self._count = 0
        # Each distinct reusable prefix gets an id, so a waiting call compares with it once.
        self._ids: dict[tuple[int, ...], tuple[int, np.ndarray]] = {}
        self._next_id = 0

    def __len__(self) -> int:
        return len(self._waiting)

    def put(self, item: T, tokens: Sequence[int]) -> None:
        patience = max(self.max_skips, PATIENCE_PER_CALL_AHEAD * len(self._waiting)) if self.max_skips else 0
        self._waiting.append(_Waiting(item, np.asarray(tokens, dtype=np.int64), self._count, patience))
        self._count += 1

    def take(self, prefixes: Iterable[Sequence[int]], answered: Callable[[T], bool] = lambda item: False) -> T:
        """The next call to serve, given the token sequences whose KV state is reusable now
        (the live context and the stored states) and which calls the answer cache can serve."""
        if not self._waiting:
            raise IndexError("no call is waiting")
        return self._serve(self._due() or self._answered(answered) or self._longest_reuse(prefixes, self._waiting))

    def take_eligible(
        self,
        prefixes: Iterable[Sequence[int]],
        eligible: Callable[[T], bool],
        answered: Callable[[T], bool] = lambda item: False,
    ) -> T | None:
        """Like :meth:`take`, among the ``eligible`` calls only (to join calls being decoded
        together); None when none is, or when a call that is not is due (it goes next)."""
        due = self._due()
        if due is not None:
            return self._serve(due) if eligible(due.item) else None
        candidates = [waiting for waiting in self._waiting if eligible(waiting.item)]
        if not candidates:
            return None
        chosen = next((waiting for waiting in candidates if answered(waiting.item)), None)
        return self._serve(chosen or self._longest_reuse(prefixes, candidates))

    def any(self, predicate: Callable[[T], bool]) -> bool:
        return any(predicate(waiting.item) for waiting in self._waiting)

    def _serve(self, chosen: _Waiting[T]) -> T:
        self._waiting.remove(chosen)
        for other in self._waiting:
            other.skipped += 1
        return chosen.item

    def _due(self) -> _Waiting[T] | None:
        starved = [waiting for waiting in self._waiting if waiting.skipped >= waiting.patience]
        return starved[0] if starved else None

    def _answered(self, answered: Callable[[T], bool]) -> _Waiting[T] | None:
        return next((waiting for waiting in self._waiting if answered(waiting.item)), None)

    def _longest_reuse(self, prefixes: Iterable[Sequence[int]], candidates: list[_Waiting[T]]) -> _Waiting[T]:
        current = self._current_arrays(prefixes)
        best = candidates[0]
        for waiting in candidates:
            if waiting.source is not None and waiting.source not in current:
                waiting.reuse, waiting.source, waiting.compared = 0, None, set()  # its prefix was dropped
            for key, array in current.items():
                if key in waiting.compared:
                    continue
                waiting.compared.add(key)
                length = common_prefix(array, waiting.tokens)
                if length > waiting.reuse:
                    waiting.reuse, waiting.source = length, key
            if waiting.reuse > best.reuse:  # ties keep the oldest: the list is in arrival order
                best = waiting
        return best

    def _current_arrays(self, prefixes: Iterable[Sequence[int]]) -> dict[int, np.ndarray]:
        ids: dict[tuple[int, ...], tuple[int, np.ndarray]] = {}
        for prefix in prefixes:
            key = tuple(prefix)
            known = self._ids.get(key)
            if known is None:
                known = (self._next_id, np.asarray(key, dtype=np.int64))
                self._next_id += 1
            ids[key] = known
        self._ids = ids  # prefixes no longer reusable are forgotten
        return dict(ids.values())
