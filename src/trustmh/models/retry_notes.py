"""Retry warnings said once per task, not once per failed attempt (issue 30); nothing after a stop.

inspect warns, for every sample attempt that failed and will be retried, with the full error
(``Sample error (id: …): AttemptTimeoutError(…). Sample will be retried.``), and for every model
call retried after a long back-off. A slow or flaky endpoint turned that into screens of
multi-line warnings ending in "no errors". While a run goes, :class:`RetryNotes` lets the first
such warning of each task × model through, shortened to one line that says further ones are
counted, and holds back the rest. Nothing is lost: every retried attempt's full error stays in
the eval log (``error_retries`` of the sample, shown by ``trustmh view``), and the summary at the
end gives each task's count (:func:`retry_lines`). Once the run is stopped
(:mod:`trustmh.core.run_stop`) the retries and the tasks' "failed" reports (with the cancel's
traceback) are held back too: the run ends with the stop's one line.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

# The inspect loggers that write the warnings: sample errors retried, model calls retried, and
# the root logger, on which inspect's log display reports a failed task with its traceback.
RETRY_LOGGERS = ("inspect_ai._eval.task.run", "inspect_ai.model._model", "", "inspect_ai._eval.evalset")
# eval_set's notice that task retries are off: `trustmh audit` turns them off on purpose.
_NO_TASK_RETRIES = "no task-level retries will be performed"
_TASK_FAILED = re.compile(r" failed \(\d+/\d+ logged\)")
_SAMPLE_RETRY = re.compile(r"^Sample error \(id: .*Sample will be retried\.\s*$", re.S)
_MODEL_RETRY = re.compile(r"-> \S+ retry \d+ \(retrying in")
_ERROR_NAME = re.compile(r"\b([A-Z]\w*(?:Error|Exception|Timeout))\b")


def error_name(message: str) -> str:
    """The exception's class name in a retry warning (``error`` when none is named)."""
    found = _ERROR_NAME.search(message)
    return found.group(1) if found else "error"


def _active_task() -> tuple[str, str]:
    from trustmh.core.inspect_compat import sample_active

    active = sample_active()
    if active is None:
        return ("a model call", "")
    return (str(active.task).removeprefix("trustmh/"), str(active.model))


class RetryNotes(logging.Filter):
    """A logging filter: the first retry warning of each task × model shortened to one line, the
    others counted and held back (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self.counts: dict[tuple[str, str], Counter[str]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        from trustmh.core.run_stop import stop_reasons

        message = record.getMessage()
        if _NO_TASK_RETRIES in message:
            return False
        if _TASK_FAILED.search(message):
            # After a stop (a cap, an unusable judge, a chatbot config error) every task ends
            # "failed" with the cancel's traceback, once per eval-set attempt: the run ends with
            # the stop's own line instead (issue 30: ~120 "Task cancelled" lines at a cap).
            # Otherwise the line stays, without its traceback: the full error is in the log
            # (trustmh view) and the run ends with its own one-line reason.
            record.exc_info, record.exc_text = None, None
            return not stop_reasons()
        if not (_SAMPLE_RETRY.match(message) or _MODEL_RETRY.search(message)):
            return True
        if stop_reasons():
            return False  # attempts cancelled by the stop are not news either
        key = _active_task()
        name = error_name(message)
        first = key not in self.counts
        self.counts.setdefault(key, Counter())[name] += 1
        if not first:
            return False
        task, model = key
        record.msg = (
            f"{task}{' on ' + model if model else ''}: a failed attempt is being retried ({name}); "
            "further retries of this task are counted, not shown (full errors: trustmh view)"
        )
        record.args = ()
        return True


@contextmanager
def retry_notes() -> Iterator[RetryNotes]:
    """:class:`RetryNotes` on inspect's retry loggers for the duration of a run."""
    notes = RetryNotes()
    loggers = [logging.getLogger(name) for name in RETRY_LOGGERS]
    for logger in loggers:
        logger.addFilter(notes)
    try:
        yield notes
    finally:
        for logger in loggers:
            logger.removeFilter(notes)


def retry_lines(logs: Sequence[Any]) -> list[str]:
    """One line per task × model whose samples were retried, from the logs' sample summaries."""
    from inspect_ai.log import read_eval_log_sample_summaries

    lines = []
    for log in logs:
        try:
            summaries = list(log.samples or []) or list(read_eval_log_sample_summaries(log.location))
        except Exception:  # noqa: BLE001 - an unreadable log only loses its retry count
            continue
        retried = sum(_retries(summary) for summary in summaries)
        if retried:
            lines.append(
                f"{log.eval.task.removeprefix('trustmh/')} on {log.eval.model}: {retried} failed sample "
                f"attempt{'s' if retried != 1 else ''} retried (full errors in the log: trustmh view)"
            )
    return lines


def _retries(summary: Any) -> int:
    retries = getattr(summary, "retries", None)
    if retries is None:
        retries = len(getattr(summary, "error_retries", None) or [])
    return int(retries or 0)
