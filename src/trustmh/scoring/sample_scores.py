"""Every sample's scores read back from an inspect log, without its transcript.

The audit's flagged-turn CSV and the report's worst-conversation list need the score metadata
of every sample (the per-turn rows do not fit in the sample summaries, which inspect trims to
fields under 1 kB). inspect's ``read_eval_log_samples`` opens the ``.eval`` zip and parses its
whole central directory again for each sample it yields, so reading n samples costs n x n
directory entries: on a 10,000-conversation audit that step ran for over 16 minutes after the
scoring itself had taken 4 (``benchmarks/audit_bench.py``). Here the sample list is read
once (the summaries), then the samples in batches through ``read_eval_log_samples_by_id``,
which parses the directory once per batch and reads the batch's members by offset: linear in n,
and at most one batch of samples in memory at a time.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from inspect_ai.scorer import Score

# The transcript parts left unread: only ids and scores are used.
TRANSCRIPT_FIELDS = frozenset({"events", "messages", "attachments", "store"})
READ_BATCH = 500  # samples read (and held) at once


@dataclass(frozen=True)
class SampleScores:
    id: str | int
    epoch: int
    scores: dict[str, Score]


def log_sample_scores(path: str, epoch: int | None = 1, batch: int = READ_BATCH) -> Iterator[SampleScores]:
    """The scores of every sample in the log at ``path`` (of one ``epoch``; ``None``: all).

    Samples come in the order the log recorded them (the order they finished), not dataset
    order; a sample that errored before scoring has no scores. Works on a finished log and on
    the "started" log of a killed run (the samples flushed so far)."""
    from inspect_ai.log import read_eval_log_sample_summaries, read_eval_log_samples_by_id

    batch = max(1, batch)
    keys = [(s.id, s.epoch) for s in read_eval_log_sample_summaries(path) if epoch is None or s.epoch == epoch]
    for start in range(0, len(keys), batch):
        samples = read_eval_log_samples_by_id(path, keys[start : start + batch], exclude_fields=set(TRANSCRIPT_FIELDS))
        for sample in samples:
            yield SampleScores(sample.id, sample.epoch, dict(sample.scores or {}))
