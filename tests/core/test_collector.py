"""The garbage-collector settings of the CLI's own process (trustmh.core.collector)."""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator

import pytest

from trustmh.core import collector


@pytest.fixture
def restored() -> Iterator[None]:
    """Python's settings back after the test: the suite's process keeps its defaults."""
    threshold = gc.get_threshold()
    yield
    gc.set_threshold(*threshold)
    gc.unfreeze()
    collector._tuned = False


def test_a_library_process_keeps_python_defaults(restored: None) -> None:
    before = gc.get_freeze_count()
    collector.freeze_loaded_objects()
    assert gc.get_freeze_count() == before  # nothing frozen unless the CLI tuned the collector


def test_tuning_raises_the_young_threshold_and_keeps_the_others(restored: None) -> None:
    gc.set_threshold(700, 10, 10)
    collector.tune_collector()
    assert gc.get_threshold() == (collector.YOUNG_THRESHOLD, 10, 10)
    gc.set_threshold(10**6, 10, 10)
    collector.tune_collector()
    assert gc.get_threshold()[0] == 10**6  # never lowered


def test_a_tuned_process_freezes_what_is_alive_and_still_frees_cycles_made_later(restored: None) -> None:
    collector.tune_collector()
    collector.freeze_loaded_objects()
    assert gc.get_freeze_count() > 1000

    class Node:
        pass

    cycle = Node()
    cycle.me = cycle  # type: ignore[attr-defined]
    del cycle
    assert gc.collect() >= 1  # garbage made after the freeze is still collected


def test_the_cli_entry_point_tunes_its_process(restored: None, monkeypatch: pytest.MonkeyPatch) -> None:
    from trustmh.cli.main import main

    gc.set_threshold(700, 10, 10)
    monkeypatch.setattr(sys, "argv", ["trustmh", "--version"])
    with pytest.raises(SystemExit):
        main()
    assert gc.get_threshold()[0] == collector.YOUNG_THRESHOLD
