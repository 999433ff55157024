"""Stopping a whole evaluation before it ends: one path, whatever the reason.

Two things stop a run early: a cap on its spending (``trustmh run --max-cost`` /
``--max-tokens-total``, :mod:`trustmh.run.budget`) and a judge that gives nothing usable
(:class:`~trustmh.scoring.verdict.JudgeWatch`). Both call :func:`stop_run`, which aborts every
running inspect task with inspect's task cancel — the path of a user's cancel: finished samples
stay in the log, samples in flight are cancelled together with their model calls, the log ends
as not finished — so rerunning the same command resumes. From then on a model call about to be
sent is held (:class:`RunStopHooks`) until the abort reaches it: nothing is sent after a stop.
The caller that started the run says why it stopped, in one line, once the eval returns.

Before, a stopped judge wrapped the generate method of every model under test so that later
samples errored; samples already waiting on the judge still ran, and their calls were paid.
"""

from __future__ import annotations

import asyncio
from typing import NoReturn

from inspect_ai.hooks import BeforeModelGenerate, EvalSetStart, Hooks, RunStart, hooks

RESTOP_SECONDS = 2.0  # a held call repeats the stop (a task may have started since)

_reasons: list[str] = []
_messages: list[str] = []


def stop_run(reason: str, message: str | None = None) -> None:
    """Abort every running task of this process's evaluation (see the module docstring).
    ``message``: the one line the run ends with, when the stopper has nobody else to say it
    (e.g. a chatbot config whose reply path matches no reply)."""
    if reason not in _reasons:
        _reasons.append(reason)
    if message and message not in _messages:
        _messages.append(message)
    _cancel_running_tasks()


def stop_reasons() -> list[str]:
    """Why the current run was stopped (empty while it goes on)."""
    return list(_reasons)


def stop_messages() -> list[str]:
    """The one-line messages the stops of the current run left (see :func:`stop_run`)."""
    return list(_messages)


def reset() -> None:
    """Forget an earlier run's stop (a process may run several, e.g. tests)."""
    _reasons.clear()
    _messages.clear()


async def hold_until_cancelled() -> NoReturn:
    """Never return: the call that awaits this is not sent, and the abort cancels it."""
    while True:
        try:
            _cancel_running_tasks()
        except Exception:  # noqa: BLE001 - inspect would swallow it and send the call: keep holding it
            pass
        await asyncio.sleep(RESTOP_SECONDS)


def _running_task_ids() -> list[str]:
    from trustmh.core.inspect_compat import get_eval_states

    return [state.task_id for state in get_eval_states() if state.task_id and not state.is_finished]


def _evaluation_running() -> bool:
    return bool(_running_task_ids())


def _cancel_running_tasks() -> None:
    from trustmh.core.inspect_compat import cancel_task

    for task_id in _running_task_ids():
        cancel_task(task_id)


@hooks(name="trustmh_run_stop", description="trustmh: no model call is sent after a run was stopped")
class RunStopHooks(Hooks):
    """Holds every call once the run is stopped; a new evaluation starts unstopped.

    A stop lasts for one ``eval_set`` (``trustmh run``), retries of its tasks included, or for
    one ``eval`` outside an eval set (several evaluations may run in one process, e.g. tests).
    """

    async def on_eval_set_start(self, data: EvalSetStart) -> None:
        reset()

    async def on_run_start(self, data: RunStart) -> None:
        if data.eval_set_id is None:
            reset()

    async def on_before_model_generate(self, data: BeforeModelGenerate) -> None:
        if not _reasons:
            return
        if _evaluation_running():
            await hold_until_cancelled()
        else:
            # The stopped evaluation has ended: this call is not part of it (a direct call made
            # afterwards in the same process, e.g. a notebook or a test), and with nothing left to
            # cancel, holding it would hang forever.
            reset()
