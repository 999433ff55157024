"""The audit feeds inspect a window of conversations at a time (memory bounded by the window, not
the export), and every conversation is still scored once, with the same numbers."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.dataset import Sample
from typer.testing import CliRunner

import trustmh.audit.task as audit_task_module
from tests.audit.audit_helpers import EXAMPLE_JSONL, audit_log, metrics
from trustmh.audit.task import FEED_WINDOW, ConversationFeed, feed_window
from trustmh.cli.main import app


def _samples(count: int) -> list[Sample]:
    return [Sample(id=f"c{i}", input="x") for i in range(count)]


def test_feed_seeds_a_window_then_one_more_per_finished_conversation() -> None:
    feed = ConversationFeed(_samples(7), window=3)
    assert [s.id for s in feed.initial_samples()] == ["c0", "c1", "c2"]
    assert feed.initial_samples() == []  # the seed is handed out once
    handed = [asyncio.run(feed.sample_complete(None)) for _ in range(5)]
    assert [[s.id for s in batch or []] for batch in handed] == [["c3"], ["c4"], ["c5"], ["c6"], []]
    assert asyncio.run(feed.next_samples()) is None


def test_feed_hands_out_the_rest_when_nothing_is_in_flight() -> None:
    feed = ConversationFeed(_samples(6), window=2)
    feed.initial_samples()
    # e.g. an operator cancelled the two running ones before they were logged
    assert [s.id for s in asyncio.run(feed.next_samples()) or []] == ["c2", "c3"]
    assert [s.id for s in asyncio.run(feed.sample_abandoned(Sample(input="x"), 1)) or []] == ["c4"]


def test_window_follows_the_judge_connections() -> None:
    assert feed_window(None) == FEED_WINDOW
    assert feed_window(1) == 8
    assert feed_window(10) == 40
    assert feed_window(10_000) == FEED_WINDOW


class _CountingFeed(ConversationFeed):
    """Counts the conversations handed to inspect and not yet finished."""

    most_in_flight = 0

    def __init__(self, samples: list[Sample], window: int = FEED_WINDOW) -> None:
        super().__init__(samples, window)
        self.in_flight = 0

    def _take(self, count: int) -> list[Sample]:
        taken = super()._take(count)
        self.in_flight += len(taken)
        _CountingFeed.most_in_flight = max(_CountingFeed.most_in_flight, self.in_flight)
        return taken

    def initial_samples(self) -> list[Sample]:
        seed = super().initial_samples()
        self.in_flight += len(seed)
        _CountingFeed.most_in_flight = max(_CountingFeed.most_in_flight, self.in_flight)
        return seed

    async def sample_complete(self, sample: Any) -> list[Sample] | None:
        self.in_flight -= 1
        return await super().sample_complete(sample)


def test_a_small_window_scores_every_conversation_with_the_same_numbers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = CliRunner()
    whole = runner.invoke(app, ["audit", str(EXAMPLE_JSONL), "--log-dir", str(tmp_path / "whole"), "--no-report"])
    assert whole.exit_code == 0, whole.output
    monkeypatch.setattr(audit_task_module, "ConversationFeed", _CountingFeed)
    monkeypatch.setattr(_CountingFeed, "most_in_flight", 0)
    # --max-connections 1: a window of 8 for the example's 12 conversations
    args = ["audit", str(EXAMPLE_JSONL), "--log-dir", str(tmp_path / "fed"), "--no-report", "--max-connections", "1"]
    fed = runner.invoke(app, args)
    assert fed.exit_code == 0, fed.output
    assert 1 <= _CountingFeed.most_in_flight <= 8
    log = audit_log(tmp_path / "fed")
    assert log.samples is not None and sorted(str(s.id) for s in log.samples) == sorted(
        str(s.id) for s in audit_log(tmp_path / "whole").samples or []
    )
    assert len(log.samples) == 12 and log.eval.dataset.name and log.eval.dataset.name.startswith("support_bot.jsonl-")
    assert metrics(log) == metrics(audit_log(tmp_path / "whole"))


@pytest.mark.parametrize(("limit", "expected"), [(3, 3), (10, 10)])
def test_limit_audits_the_first_conversations_through_a_refilling_window(
    tmp_path: Path, limit: int, expected: int
) -> None:
    # --max-connections 1 gives a window of 8: a limit of 10 needs the window refilled, 3 cuts the seed
    args = ["audit", str(EXAMPLE_JSONL), "--log-dir", str(tmp_path), "--no-report", "--max-connections", "1"]
    result = CliRunner().invoke(app, [*args, "--limit", str(limit)])
    assert result.exit_code == 0, result.output
    log = audit_log(tmp_path)
    assert sorted(str(s.id) for s in log.samples or []) == [f"c-{n:03d}" for n in range(1, expected + 1)]
    assert log.results is not None and log.results.total_samples == expected


def test_a_failed_audit_is_not_retried_in_the_same_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # inspect's in-process retry would reuse the task and its spent feed; a rerun resumes instead
    import inspect_ai

    real_eval_set = inspect_ai.eval_set
    seen: dict[str, Any] = {}

    def recording_eval_set(**kwargs: Any) -> Any:
        seen.update(kwargs)
        return real_eval_set(**kwargs)

    monkeypatch.setattr(inspect_ai, "eval_set", recording_eval_set)
    result = CliRunner().invoke(app, ["audit", str(EXAMPLE_JSONL), "--log-dir", str(tmp_path), "--no-report"])
    assert result.exit_code == 0, result.output
    assert seen["retry_attempts"] == 0
