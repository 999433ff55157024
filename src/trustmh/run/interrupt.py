"""Ctrl-C during ``trustmh run``: stop the run the way a cost cap does, and never end as a success.

Under inspect 0.3.285 a SIGINT cancelled the running task, after which ``eval_set`` reported
"Completed all tasks ... successfully" and ``trustmh run`` exited 0 (issue 25): a user who
stopped a run was told it had finished. Within :func:`interrupt_stops_the_run` the first Ctrl-C
stops the run through :func:`trustmh.core.run_stop.stop_run` (the running tasks are cancelled,
finished samples stay in the log, nothing more is sent, rerunning resumes) and the run then ends
with one line and exit code 130; a second Ctrl-C raises ``KeyboardInterrupt`` at once.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from trustmh.core.errors import EXIT_INTERRUPTED, UserError


class InterruptedRunError(UserError):
    """The user pressed Ctrl-C: the run stopped before its end (exit 130)."""

    exit_code = EXIT_INTERRUPTED


@contextmanager
def interrupt_stops_the_run() -> Iterator[list[int]]:
    """Yields the list of SIGINTs received (empty unless interrupted); see the module docstring."""
    received: list[int] = []
    if threading.current_thread() is not threading.main_thread():  # signals reach the main thread only
        yield received
        return

    def on_sigint(signum: int, frame: Any) -> None:
        received.append(signum)
        if len(received) > 1:
            raise KeyboardInterrupt
        from trustmh.core.run_stop import stop_run

        stop_run("interrupted (Ctrl-C)")

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        yield received
    finally:
        signal.signal(signal.SIGINT, previous)


def raise_if_interrupted(received: list[int]) -> None:
    if received:
        raise InterruptedRunError(
            "interrupted (Ctrl-C): the run stopped before its end; finished samples are in the log, "
            "rerun the same command to resume"
        )
