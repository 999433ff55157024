"""Progress bar for bulk runs (rich, on stderr), cheap enough for the hot path."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

if TYPE_CHECKING:
    from trustmh.bulk.run_stats import RunStats


class ProgressReporter:
    """A rich progress bar whose text shows cache hits, retries and failures so far."""

    def __init__(self, total: int, description: str, console: Console | None = None) -> None:
        self._progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[detail]}"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=console or Console(stderr=True),
            refresh_per_second=4,
        )
        self._task = self._progress.add_task(description, total=total, detail="")
        self._done = 0

    def __enter__(self) -> ProgressReporter:
        self._progress.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._progress.stop()

    def advance(self, stats: RunStats) -> None:
        self._done += 1
        # Rebuilding the detail text on every item would cost more than the item itself
        # when items come from the cache; every 16th item is plenty at 4 refreshes/s.
        if self._done % 16 == 0:
            detail = f"cached {stats.cache_hits}  retries {stats.retries}  failed {stats.failures}"
            self._progress.update(self._task, advance=16, detail=detail)

    def finish(self, stats: RunStats) -> None:
        detail = f"cached {stats.cache_hits}  retries {stats.retries}  failed {stats.failures}"
        self._progress.update(self._task, completed=self._done, detail=detail)
