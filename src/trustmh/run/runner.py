"""Running trustmh tasks through inspect (eval-set defaults, resume, the dry run).

Around it: the models (:mod:`trustmh.run.models`), the logs (:mod:`trustmh.run.logs`), what a
run prints (:mod:`trustmh.run.summary`), recorded outputs (:mod:`trustmh.run.replay_check`) and
``trustmh score`` (:mod:`trustmh.run.replay_scoring`).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

from trustmh.core.errors import UserError
from trustmh.core.locks import exclusive
from trustmh.run.batching import BatchPlan, plan_batch
from trustmh.run.config import RunConfig, epochs_option
from trustmh.run.interrupt import interrupt_stops_the_run, raise_if_interrupted
from trustmh.run.logs import raise_on_failed, remove_superseded_logs
from trustmh.run.models import (
    attempt_timeout_on_api_models,
    check_endpoints,
    check_http_configs,
    is_embedded,
    judge_list,
    model_defaults,
    model_roles,
    with_redacting_models,
)
from trustmh.run.replay_check import check_replays
from trustmh.run.summary import console, first_line, print_results
from trustmh.scoring.judge import raise_if_a_judge_stopped


def build_tasks(
    names: Sequence[str],
    source: str,
    data_dir: str | None,
    task_args: Mapping[str, Any] | None = None,
    allow_modified: bool | None = None,
) -> list[Any]:
    """Task objects (not registry names): construction validates data before any model call.
    ``task_args`` (``-T``) go to the tasks that take them. ``allow_modified`` (``trustmh run``):
    files from a data folder are checked against the catalogue's sha256 — a mismatch is an error
    (False) or marks the task modified (True, :mod:`trustmh.run.data_check`); ``None`` leaves
    them to the loaders' format checks."""
    from trustmh.run.data_check import built_with_checked_data
    from trustmh.run.task_catalog import task_args_for, task_function

    shares = task_args_for(list(names), task_args or {})

    def build(name: str) -> Any:
        return task_function(name)(source=source, data_dir=data_dir, **shares[name])

    if allow_modified is None:
        return [build(name) for name in names]
    return [built_with_checked_data(functools.partial(build, name), allow_modified) for name in names]


# Defaults for API models (see docs/performance.md and the hardening tests):
# * a generate call gives up after DEFAULT_TIMEOUT s in all (retries included), each attempt
#   after DEFAULT_ATTEMPT_TIMEOUT s (a hung connection is abandoned and retried), and after
#   DEFAULT_MAX_RETRIES retries; inspect's own default is to retry forever, which turns a dead
#   endpoint into a run that never ends.
# * a finished sample is written to the log at most LOG_FLUSH_SECONDS after it finished, or
#   sooner once DEFAULT_LOG_BUFFER finished samples are waiting: a run killed with SIGKILL keeps
#   every sample that finished more than LOG_FLUSH_SECONDS before the kill, and rerunning the
#   same command skips them. Not every sample at once (log_buffer=1): inspect rewrites the whole
#   .eval file on each write, so that cost grew with the samples already written (quadratic
#   over a long task: benchmarks/run_flush_bench.py, docs/performance.md).
DEFAULT_TIMEOUT = 600
DEFAULT_ATTEMPT_TIMEOUT = 180
DEFAULT_MAX_RETRIES = 6
DEFAULT_LOG_BUFFER = 100
LOG_FLUSH_SECONDS = 2.0
# inspect's realtime sample buffer (an SQLite database written on every transcript event, for
# live viewing and crash recovery) costs ~4-5 ms of CPU per sample, a third of inspect's own
# per-sample cost (benchmarks/inspect_path_bench.py). With every finished sample in the log
# within LOG_FLUSH_SECONDS, the log is all resuming and `inspect view` need.
DEFAULT_LOG_REALTIME = False
# A sample that still fails after its retries is retried once more in the same run before it
# counts as an error; the task fails (and eval-set reruns its errored samples) above this share.
DEFAULT_RETRY_ON_ERROR = 1
LOCK_FILE = ".trustmh.lock"  # held by the run writing a log folder
DEFAULT_FAIL_ON_ERROR = 0.1


def run_tasks(config: RunConfig) -> list[Any]:
    """eval-set over the tasks × models, so rerunning the same command resumes.

    Resuming: completed samples are flushed to the log within ``LOG_FLUSH_SECONDS`` of
    finishing, so after a crash (even SIGKILL) the same command reruns only the samples that
    had not finished by then.
    Several judges make a panel; ``judge_repeats`` and ``exclude_self`` are the panel's
    probes (:mod:`trustmh.scoring.panel`).
    ``config.caps``: ``--max-cost`` / ``--max-tokens-total`` (:mod:`trustmh.run.budget`).
    """
    from inspect_ai import eval_set

    # Imported for what they register: providers and tasks; the hook that sends no call once a
    # cap or a useless judge stopped the run.
    import trustmh._registry
    import trustmh.core.run_stop  # noqa: F401
    from trustmh.core.inspect_compat import PrerequisiteError, quiet_hooks_banner
    from trustmh.scoring.panel import panel_settings

    config.check()
    log_dir = config.log_dir
    epochs_arg = epochs_option(config.epochs, config.epochs_reducer)
    batch_plan = plan_batch(config.batch, config.models, list(config.judges))
    tasks = build_tasks(config.tasks, config.source, config.data_dir, config.task_args, config.allow_modified)
    check_replays(config.models, dict(config.model_args), tasks, config.limit)
    from trustmh.run.data_check import modified_lines

    for line in modified_lines(tasks):
        console.print(line, highlight=False, markup=False, soft_wrap=True, style="bold")
    budget = run_budget_of(config)
    quiet_hooks_banner()  # every trustmh hook is registered by now (the budget's just above)
    from trustmh.conversation.users import simulated_user_lines

    for line in simulated_user_lines(tasks, config.models, config.user_model):
        console.print(line, highlight=False, markup=False)
    for notice in batch_plan.notices:
        console.print(f"batch: {notice}", highlight=False)
    created = not log_dir.exists()
    log_dir.mkdir(parents=True, exist_ok=True)
    lock_file = log_dir / LOCK_FILE
    # One run per log folder: a second would pay every call again and remove logs the first
    # is still writing (remove_superseded_logs).
    with exclusive(lock_file, f"log folder {log_dir}"), enforced(budget, log_dir):
        started_at = time.time()
        try:
            options = eval_set_options(
                config.models,
                dict(config.model_args),
                config.judge,
                config.limit,
                config.max_connections,
                config.timeout,
                config.attempt_timeout,
                config.max_retries,
                config.display,
                config.user_model,
                batch_plan,
            )
            options = with_redacting_models(options | ({"epochs": epochs_arg} if epochs_arg is not None else {}))
            options = attempt_timeout_on_api_models(options)
            check_endpoints(options)
            judge_models = [
                m for role, m in (options.get("model_roles") or {}).items() if role.split("_")[0] == "judge"
            ]
            with (
                stoppable_run(LOG_FLUSH_SECONDS) as interrupted,
                panel_settings(config.judge_repeats, config.exclude_self),
            ):
                success, logs = eval_set(tasks=tasks, log_dir=str(log_dir), **options)
        except (PrerequisiteError, UserError) as error:  # a missing API key, an unreachable endpoint
            if created:
                lock_file.unlink(missing_ok=True)
                if not any(log_dir.iterdir()):
                    log_dir.rmdir()
            if isinstance(error, UserError):
                raise
            from rich.text import Text

            text = Text.from_markup(str(getattr(error, "message", None) or error)).plain  # inspect writes rich markup
            raise UserError(first_line(text).removeprefix("ERROR: ")) from None
        remove_superseded_logs(log_dir, logs, started_at)
        raise_if_stopped(interrupted, budget, logs)
    raise_if_a_judge_stopped(judge_models)
    print_results(logs)
    if budget is not None:
        from trustmh.run.budget import spent_line

        console.print(spent_line(budget), highlight=False)
    if not success:
        raise_on_failed(logs)
    if config.write_report:
        _write_report(log_dir)
    return logs


@contextmanager
def stoppable_run(flush_seconds: float | None = None) -> Iterator[list[int]]:
    """Around the ``eval``/``eval_set`` of every command that runs tasks (``run``, ``audit``,
    ``score``): the first Ctrl-C stops the run (:mod:`trustmh.run.interrupt`), retry warnings are
    one line per task (:mod:`trustmh.models.retry_notes`), and with ``flush_seconds`` a finished
    sample reaches the log within that many seconds. What is loaded by then leaves the garbage
    collector's walks in the CLI's process (:mod:`trustmh.core.collector`). Yields the SIGINTs
    received, for :func:`raise_if_stopped` once the eval returned."""
    from trustmh.core.collector import freeze_loaded_objects
    from trustmh.core.inspect_compat import stale_flush_interval
    from trustmh.models.retry_notes import retry_notes

    freeze_loaded_objects()
    with (
        interrupt_stops_the_run() as interrupted,
        retry_notes(),
        stale_flush_interval(flush_seconds) if flush_seconds else nullcontext(),
    ):
        yield interrupted


def raise_if_stopped(interrupted: list[int], budget: Any = None, logs: Sequence[Any] = ()) -> None:
    """A run stopped before its end ends with its one line: Ctrl-C (exit 130), a cap (exit 3), or
    the line a stop left (a model call out of --timeout, a chatbot config error; exit 2)."""
    raise_if_interrupted(interrupted)
    if budget is not None and budget.budget.stopped:
        from trustmh.run.budget import cap_message

        raise cap_message(budget, finished_samples(logs))
    raise_if_stopped_with_a_message()


def raise_if_stopped_with_a_message() -> None:
    """The one line a stop left for the run to end with (e.g. a chatbot config error), as a UserError."""
    from trustmh.core.run_stop import stop_messages

    messages = stop_messages()
    if messages:
        raise UserError(messages[0])


def run_budget_of(config: RunConfig) -> Any:
    """The run's :class:`trustmh.run.budget.RunBudget` (``None``: no cap; nothing imported)."""
    if not config.caps.any:
        return None
    from trustmh.cost.prices import PriceTable
    from trustmh.run.budget import make_run_budget

    user = [config.user_model] if config.user_model else []
    every_model = list(dict.fromkeys([*config.models, *config.judges, *user]))
    caps = config.caps
    return make_run_budget(every_model, PriceTable.load(caps.prices), caps.max_cost, caps.max_tokens_total)


@contextmanager
def enforced(budget: Any, log_dir: Path) -> Iterator[None]:
    """The caps hold while the block runs, counting what earlier capped runs spent in ``log_dir``
    (:mod:`trustmh.run.spend`)."""
    if budget is None:
        yield
        return
    from trustmh.run.budget import active
    from trustmh.run.spend import counted_in_folder

    with counted_in_folder(budget, log_dir) as earlier, active(budget):
        if earlier is not None:
            console.print(earlier, highlight=False)
        yield


def finished_samples(logs: Sequence[Any]) -> int:
    """Samples with a result in the logs (read from each log's sample summaries)."""
    from inspect_ai.log import read_eval_log_sample_summaries

    count = 0
    for log in logs:
        try:
            count += sum(1 for s in read_eval_log_sample_summaries(log.location) if s.completed and s.error is None)
        except Exception:  # noqa: BLE001 - a count for a message: an unreadable log counts none
            continue
    return count


def dry_run_tasks(config: RunConfig) -> Any:
    """``trustmh run --dry-run``: the estimate of :mod:`trustmh.cost.run_estimate`, printed
    (every judge of a panel is a role of its own; ``judge_repeats`` repeats are counted;
    what ``--batch`` sends through a batch API is priced at the batch price) and returned
    (a :class:`~trustmh.cost.estimate.Estimate`: requests per model, role and task)."""
    from trustmh.cost.estimate import print_estimate
    from trustmh.cost.prices import PriceTable
    from trustmh.cost.run_estimate import estimate_run
    from trustmh.scoring.panel import panel_settings

    config.check()
    check_http_configs(config.models, dict(config.model_args))
    price_table = PriceTable.load(config.caps.prices)
    bound = {role: model for role, model in config.roles().items() if model}
    batch_plan = plan_batch(config.batch, config.models, list(config.judges))
    for notice in batch_plan.notices:
        console.print(f"batch: {notice}", highlight=False)
    with panel_settings(config.judge_repeats):
        estimate = estimate_run(
            build_tasks(config.tasks, config.source, config.data_dir, config.task_args, config.allow_modified),
            config.models,
            bound,
            config.limit,
            price_table,
            config.epochs,
            batch_plan.batches,
        )
    from trustmh.tasking.declare import resolve_source

    suite = "starter suite; --data-dir DATA for the benchmarks"
    if resolve_source(config.source, config.data_dir) == "benchmark":
        suite = "benchmark data"
    tasks = f"{len(config.tasks)} task{'s' if len(config.tasks) != 1 else ''}"
    print_estimate(console, estimate, f"trustmh run --dry-run ({tasks}, {suite})", per_task=True)
    return estimate


def eval_set_options(
    models: Sequence[str],
    model_args: dict[str, Any] | None = None,
    judge: str | Sequence[str] | None = None,
    limit: int | None = None,
    max_connections: int | None = None,
    timeout: int | None = None,
    attempt_timeout: int | None = None,
    max_retries: int | None = None,
    display: str | None = None,
    user_model: str | None = None,
    batch: BatchPlan | None = None,
) -> dict[str, Any]:
    """The ``inspect_ai.eval_set`` keyword arguments of a trustmh run (besides tasks and
    log_dir); shared with the benchmarks so they measure exactly what ``trustmh run`` does.

    A batched role gets no default timeouts (0 here, None for inspect): a provider batch may
    take hours. The whole-call ``timeout`` is inherited by every role, the attempt timeout only
    by the models under test."""
    from trustmh.scoring.panel import judge_roles

    api_models = [model for model in models if not is_embedded(model)]
    batch = batch or BatchPlan()
    if batch.model is not None or batch.judges:
        timeout = timeout if timeout is not None else 0
    if batch.model is not None:
        attempt_timeout = attempt_timeout if attempt_timeout is not None else 0
    return dict(
        **({"batch": batch.model} if batch.model is not None else {}),
        model=list(models),
        model_args=model_defaults(models, model_args or {}),
        model_roles=model_roles(batch=dict(batch.judges), **judge_roles(judge_list(judge)), user=user_model),
        limit=limit,
        max_connections=max_connections,
        retry_attempts=2,
        fail_on_error=DEFAULT_FAIL_ON_ERROR,
        retry_on_error=DEFAULT_RETRY_ON_ERROR,
        log_buffer=DEFAULT_LOG_BUFFER,
        log_realtime=DEFAULT_LOG_REALTIME,
        timeout=(timeout or None) if timeout is not None else DEFAULT_TIMEOUT,
        # The embedded model is local and serialised: an attempt timeout would only cut off
        # a slow CPU mid-answer (or a call waiting its turn), so it applies when an API model is
        # in the run, and then to the API models only (run_models.attempt_timeout_on_api_models).
        attempt_timeout=(attempt_timeout or None)
        if attempt_timeout is not None
        else (DEFAULT_ATTEMPT_TIMEOUT if api_models else None),
        max_retries=max_retries if max_retries is not None else DEFAULT_MAX_RETRIES,
        display=display,
        # Logs of other models (or tasks) in the folder are left alone, so adding a model to a
        # comparison is rerunning with one more -m; the logs of this run's tasks still resume.
        log_dir_allow_dirty=True,
    )


def _write_report(log_dir: Path) -> None:
    from trustmh.report import build_report

    path = build_report([log_dir], log_dir / "report.html")
    console.print(f"report: {path}")
