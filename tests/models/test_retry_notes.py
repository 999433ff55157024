"""Issue 30: retry warnings are one line per task (the first, shortened), the rest counted."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import pytest

from trustmh.models import retry_notes as notes_module
from trustmh.models.retry_notes import RETRY_LOGGERS, error_name, retry_lines, retry_notes

SAMPLE_RETRY = (
    "Sample error (id: {i}, epoch: 1): AttemptTimeoutError(\"attempt_timeout '180' exceeded.\")\n"
    "Traceback (most recent call last):\n  File ...\n. Sample will be retried."
)


def test_first_retry_warning_of_a_task_is_one_line_and_the_rest_are_counted(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    task = {"key": ("crisis_cssrs", "trustmh/smollm2")}
    monkeypatch.setattr(notes_module, "_active_task", lambda: task["key"])
    logger = logging.getLogger(RETRY_LOGGERS[0])
    with caplog.at_level(logging.WARNING, logger=RETRY_LOGGERS[0]), retry_notes() as notes:
        for i in range(28):
            logger.warning(SAMPLE_RETRY.format(i=i))
        task["key"] = ("ethics_ethicmh", "openai/x")
        logger.warning(SAMPLE_RETRY.format(i=99))
        logger.warning("Sample error (id: 5, epoch: 1): ValueError('x'). Sample will be scored.")  # not a retry
    shown = [record.getMessage() for record in caplog.records]
    assert len(shown) == 3, shown
    assert shown[0].startswith(
        "crisis_cssrs on trustmh/smollm2: a failed attempt is being retried (AttemptTimeoutError)"
    )
    assert "\n" not in shown[0] and "counted, not shown" in shown[0]
    assert shown[1].startswith("ethics_ethicmh on openai/x:")
    assert shown[2].endswith("Sample will be scored.")
    assert notes.counts[("crisis_cssrs", "trustmh/smollm2")]["AttemptTimeoutError"] == 28
    # outside the run the filter is gone
    with caplog.at_level(logging.WARNING, logger=RETRY_LOGGERS[0]):
        logger.warning(SAMPLE_RETRY.format(i=1))
    assert "Traceback" in caplog.records[-1].getMessage()


def test_error_names_and_the_closing_lines_come_from_the_logs() -> None:
    assert error_name("RetryError(<Future raised InternalServerError>)") == "RetryError"
    assert error_name("something went wrong") == "error"

    def log(task: str, retries: list[int]) -> SimpleNamespace:
        samples = [SimpleNamespace(retries=r) for r in retries]
        return SimpleNamespace(samples=samples, location="", eval=SimpleNamespace(task=f"trustmh/{task}", model="m"))

    lines = retry_lines([log("a", [0, 2, 1]), log("b", [0, 0])])
    assert lines == ["a on m: 3 failed sample attempts retried (full errors in the log: trustmh view)"]


def test_a_failed_task_is_reported_without_its_traceback_and_the_task_retry_notice_is_dropped(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A failed task's console line kept its multi-line traceback (issue 35; the traceback is in the
    log); eval_set's notice that task retries are off is about a choice trustmh made (audit)."""
    root, evalset = logging.getLogger(""), logging.getLogger("inspect_ai._eval.evalset")
    try:
        raise RuntimeError("boom")
    except RuntimeError as error:
        failure = (type(error), error, error.__traceback__)
    with caplog.at_level(logging.WARNING), retry_notes():
        root.error("privacy_psyleak (2 samples): trustmh/http/bot failed (0/2 logged)", exc_info=failure)
        evalset.warning(
            "retry_immediate=True has no effect when retry_attempts=0; no task-level retries will be performed."
        )
    (record,) = caplog.records
    assert record.getMessage().endswith("failed (0/2 logged)") and record.exc_info is None
    assert "Traceback" not in caplog.text
