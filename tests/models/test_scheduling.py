"""The order in which the embedded model serves waiting calls (trustmh.models.scheduling)."""

from __future__ import annotations

import numpy as np

from trustmh.models.scheduling import MAX_SKIPS, PATIENCE_PER_CALL_AHEAD, PrefixQueue, common_prefix

SHARED = list(range(100, 160))  # a task's instructions: 60 tokens every prompt of the family opens with


def test_common_prefix() -> None:
    a = np.array([1, 2, 3, 4])
    assert common_prefix(a, np.array([1, 2, 9])) == 2
    assert common_prefix(a, np.array([1, 2])) == 2
    assert common_prefix(a, np.array([7])) == 0
    assert common_prefix(a, a) == 4


def test_without_patience_it_is_first_come_first_served() -> None:
    queue: PrefixQueue[str] = PrefixQueue(max_skips=0)
    for name, tokens in [("a", [1, 2]), ("b", SHARED + [5]), ("c", SHARED + [6])]:
        queue.put(name, tokens)
    assert [queue.take([SHARED]) for _ in range(3)] == ["a", "b", "c"]


def test_the_call_reusing_most_goes_first_ties_in_arrival_order() -> None:
    queue: PrefixQueue[str] = PrefixQueue()
    queue.put("other", [1, 2, 3])
    queue.put("family-1", SHARED + [7])
    queue.put("family-2", SHARED + [8, 9])
    queue.put("unrelated", [4, 5])
    stored = [SHARED + [1, 1]]
    assert queue.take(stored) == "family-1"
    assert queue.take(stored) == "family-2"
    assert queue.take(stored) == "other"  # no reuse left: the oldest
    assert queue.take(stored) == "unrelated"


def test_a_live_context_that_moved_on_is_compared_again() -> None:
    queue: PrefixQueue[str] = PrefixQueue()
    queue.put("x", [1, 2, 3, 4])
    queue.put("y", [9, 9, 9])
    assert queue.take([[9, 9, 0]]) == "y"
    queue.put("z", [9, 9, 9, 9])
    # The state [9, 9, 0] was dropped; only [1, 2] is reusable now.
    assert queue.take([[1, 2]]) == "x"
    assert queue.take([[1, 2]]) == "z"


def test_answered_calls_go_first() -> None:
    queue: PrefixQueue[str] = PrefixQueue()
    queue.put("long", SHARED)
    queue.put("answered", [1])
    assert queue.take([SHARED], answered=lambda item: item == "answered") == "answered"


def test_no_call_waits_more_than_its_patience() -> None:
    queue: PrefixQueue[str] = PrefixQueue()
    queue.put("lonely", [1, 2, 3])
    served = []
    # A stream of calls that all reuse the shared prefix keeps arriving; the lonely call is
    # still served once it has been passed over MAX_SKIPS times.
    for n in range(MAX_SKIPS + 5):
        queue.put(f"family-{n}", SHARED + [n])
        served.append(queue.take([SHARED]))
    assert served.index("lonely") == MAX_SKIPS


def test_patience_grows_with_the_queue_it_joined() -> None:
    """A call that arrives behind more calls than MAX_SKIPS may be passed over
    PATIENCE_PER_CALL_AHEAD (2) times as many times as there were calls ahead of it (about
    twice what first-come first-served would make it wait)."""
    assert PATIENCE_PER_CALL_AHEAD == 2
    queue: PrefixQueue[str] = PrefixQueue(max_skips=2)
    for n in range(4):
        queue.put(f"family-{n}", SHARED + [n])
    queue.put("lonely", [1])  # 4 calls ahead: patience 8
    order = []
    for n in range(4, 13):
        queue.put(f"family-{n}", SHARED + [n])
        order.append(queue.take([SHARED]))
    assert order == [*(f"family-{n}" for n in range(8)), "lonely"]
