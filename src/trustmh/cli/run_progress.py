"""The default progress of ``trustmh run``: tasks done / total, samples, elapsed, ETA (issue 30).

inspect's ``log`` display prints only warnings, so a long run on a slow machine said nothing
for an hour. This display is built on inspect's hooks (task start, sample end, task end) and
prints at most :data:`WIDTH` columns:

* on a terminal, one status line rewritten in place (at most once a second: tasks done /
  total, samples done / known, elapsed, ETA) and a line per finished task (``done 3/12: task ·
  model · N samples in T · ETA E``);
* otherwise (a pipe, a file, CI), only the line per finished task, so a log stays readable.

The ETA is the samples still to run at the rate measured so far; it is shown once every task
has started (before that the total is not known) and at least one sample has finished.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import IO

from inspect_ai.hooks import Hooks, SampleEnd, TaskEnd, TaskStart, hooks

WIDTH = 100
REFRESH_SECONDS = 1.0


def duration(seconds: float) -> str:
    """``42s``, ``3m05s``, ``1h02m``."""
    seconds = max(0, int(round(seconds)))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


@dataclass
class _Task:
    name: str
    model: str
    samples: int
    done: int = 0
    errors: int = 0
    started: float = field(default_factory=time.monotonic)


@dataclass
class Progress:
    """What the run has done so far; :meth:`status` and :meth:`finished_line` say it in a line."""

    tasks_total: int
    stream: IO[str] = field(default_factory=lambda: sys.stdout)
    live: bool = False  # rewrite a status line in place (a terminal)
    started: float = field(default_factory=time.monotonic)
    tasks: dict[str, _Task] = field(default_factory=dict)
    finished: int = 0
    _shown_at: float = 0.0
    _status_shown: bool = False

    @property
    def samples_done(self) -> int:
        return sum(task.done for task in self.tasks.values())

    @property
    def samples_total(self) -> int:
        return sum(task.samples for task in self.tasks.values())

    def eta(self, now: float) -> str:
        done = self.samples_done
        if len(self.tasks) < self.tasks_total or not done:
            return "—"
        remaining = max(0, self.samples_total - done)
        return duration((now - self.started) / done * remaining)

    def status(self, now: float | None = None) -> str:
        now = time.monotonic() if now is None else now
        known = "" if len(self.tasks) >= self.tasks_total else "+"  # tasks not started have more
        return _fit(
            f"tasks {self.finished}/{self.tasks_total} · samples {self.samples_done}/{self.samples_total}{known}"
            f" · elapsed {duration(now - self.started)} · ETA {self.eta(now)}"
        )

    def finished_line(self, task: _Task, status: str, now: float | None = None) -> str:
        """``done 3/12: <task> · <model> · N samples in T · ETA E``; long names give way first."""
        now = time.monotonic() if now is None else now
        errors = f", {task.errors} errored" if task.errors else ""
        head = f"{'done' if status == 'success' else status} {self.finished}/{self.tasks_total}: "
        samples = f"{task.done} sample{'s' if task.done != 1 else ''}{errors}"
        tail = f" · {samples} in {duration(now - task.started)} · ETA {self.eta(now)}"
        room = WIDTH - len(head) - len(tail) - len(" · ")
        model, name = task.model, task.name
        if len(model) + len(name) > room:
            model = _fit(model, max(8, min(len(model), room // 2)))
            name = _fit(name, max(8, room - len(model)))
        return _fit(f"{head}{name} · {model}{tail}")

    # --- events -------------------------------------------------------------------------------
    def task_started(self, eval_id: str, name: str, model: str, samples: int) -> None:
        self.tasks[eval_id] = _Task(name.removeprefix("trustmh/"), model, samples)
        self._refresh()

    def sample_ended(self, eval_id: str, errored: bool) -> None:
        task = self.tasks.get(eval_id)
        if task is None:
            return
        task.done += 1
        task.errors += errored
        self._refresh()

    def task_ended(self, eval_id: str, status: str) -> None:
        task = self.tasks.get(eval_id)
        if task is None:
            return
        self.finished += 1
        self._write_line(self.finished_line(task, status))

    # --- output -------------------------------------------------------------------------------
    def _refresh(self) -> None:
        now = time.monotonic()
        if not self.live or now - self._shown_at < REFRESH_SECONDS:
            return
        self._shown_at = now
        self.stream.write("\r\x1b[K" + self.status(now))
        self.stream.flush()
        self._status_shown = True

    def _write_line(self, line: str) -> None:
        prefix = "\r\x1b[K" if self._status_shown else ""
        self.stream.write(prefix + line + "\n")
        self.stream.flush()
        self._status_shown = False
        self._shown_at = 0.0
        if self.finished < self.tasks_total:  # after the last task inspect's own line follows: no status to glue onto
            self._refresh()

    def close(self) -> None:
        if self._status_shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._status_shown = False


def _fit(line: str, width: int = WIDTH) -> str:
    return line if len(line) <= width else line[: max(0, width - 1)] + "…"


_active: Progress | None = None


@contextmanager
def shown(tasks_total: int, stream: IO[str] | None = None) -> Iterator[Progress]:
    """Show the run's progress while the block runs (a status line on a terminal)."""
    global _active
    out = stream or sys.stdout
    progress = Progress(tasks_total, out, live=out.isatty())
    _active = progress
    try:
        yield progress
    finally:
        _active = None
        progress.close()


def _samples_of(data: TaskStart) -> int:
    spec = data.spec
    samples = spec.dataset.samples or 0
    limit = spec.config.limit
    if isinstance(limit, int):
        samples = min(samples, limit)
    elif isinstance(limit, tuple | list) and len(limit) == 2:
        samples = min(samples, max(0, int(limit[1]) - int(limit[0])))
    epochs = spec.config.epochs or 1
    return samples * epochs


@hooks(name="trustmh_run_progress", description="trustmh run: tasks, samples, elapsed time and ETA")
class RunProgressHooks(Hooks):
    def enabled(self) -> bool:
        return _active is not None

    async def on_task_start(self, data: TaskStart) -> None:
        if _active is not None:
            _active.task_started(data.eval_id, data.spec.task, data.spec.model, _samples_of(data))

    async def on_sample_end(self, data: SampleEnd) -> None:
        if _active is not None:
            _active.sample_ended(data.eval_id, data.sample.error is not None)

    async def on_task_end(self, data: TaskEnd) -> None:
        if _active is not None:
            _active.task_ended(data.eval_id, data.log.status)
