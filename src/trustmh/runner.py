"""Running trustmh tasks through inspect (eval-set defaults, resume, the dry run).

Around it: the models (:mod:`trustmh.run_models`), the logs (:mod:`trustmh.run_logs`), what a
run prints (:mod:`trustmh.run_summary`), recorded outputs (:mod:`trustmh.replay_check`) and
``trustmh score`` (:mod:`trustmh.replay_scoring`).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trustmh.batching import BatchPlan, plan_batch
from trustmh.errors import UserError
from trustmh.locks import exclusive
from trustmh.replay_check import check_replays
from trustmh.run_logs import raise_on_failed, remove_superseded_logs
from trustmh.run_models import (
    check_endpoints,
    is_embedded,
    judge_list,
    model_defaults,
    model_roles,
    validate_models,
    with_redacting_models,
)
from trustmh.run_summary import console, first_line, print_results
from trustmh.scoring.judge import raise_if_a_judge_stopped


def build_tasks(
    names: Sequence[str], source: str, data_dir: str | None, task_args: Mapping[str, Any] | None = None
) -> list[Any]:
    """Task objects (not registry names): construction validates data before any model call.
    ``task_args`` (``-T``) go to the tasks that take them."""
    from trustmh.task_catalog import task_args_for, task_function

    shares = task_args_for(list(names), task_args or {})
    return [task_function(name)(source=source, data_dir=data_dir, **shares[name]) for name in names]


# Defaults for API models (see docs/performance.md and the hardening tests):
# * a generate call gives up after DEFAULT_TIMEOUT s in all (retries included), each attempt
#   after DEFAULT_ATTEMPT_TIMEOUT s (a hung connection is abandoned and retried), and after
#   DEFAULT_MAX_RETRIES retries; inspect's own default is to retry forever, which turns a dead
#   endpoint into a run that never ends.
# * every completed sample is flushed to the log at once (log_buffer=1): a run killed with
#   SIGKILL keeps every sample it finished, and rerunning the same command skips them.
#   Writing one sample to an .eval zip costs well under a millisecond next to a model call.
DEFAULT_TIMEOUT = 600
DEFAULT_ATTEMPT_TIMEOUT = 180
DEFAULT_MAX_RETRIES = 6
DEFAULT_LOG_BUFFER = 1
# inspect's realtime sample buffer (an SQLite database written on every transcript event, for
# live viewing and crash recovery) costs ~4-5 ms of CPU per sample, a third of inspect's own
# per-sample cost (benchmarks/inspect_path_bench.py). With log_buffer=1 every finished
# sample is already in the log, which is all resuming and `inspect view` need.
DEFAULT_LOG_REALTIME = False
# A sample that still fails after its retries is retried once more in the same run before it
# counts as an error; the task fails (and eval-set reruns its errored samples) above this share.
DEFAULT_RETRY_ON_ERROR = 1
LOCK_FILE = ".trustmh.lock"  # held by the run writing a log folder
DEFAULT_FAIL_ON_ERROR = 0.1


def run_tasks(
    names: Sequence[str],
    models: Sequence[str],
    model_args: dict[str, Any],
    judge: str | Sequence[str] | None,
    limit: int | None,
    log_dir: Path,
    data_dir: str | None,
    source: str,
    max_connections: int | None,
    write_report: bool,
    timeout: int | None = None,
    attempt_timeout: int | None = None,
    max_retries: int | None = None,
    display: str | None = None,
    user_model: str | None = None,
    batch: str | None = None,
    epochs: int | None = None,
    epochs_reducer: str | None = None,
    judge_repeats: int = 0,
    exclude_self: bool = False,
    caps: RunCaps | None = None,
    task_args: Mapping[str, Any] | None = None,
) -> list[Any]:
    """eval-set over the tasks × models, so rerunning the same command resumes.

    Resuming: completed samples are flushed to the log as they finish, so after a crash
    (even SIGKILL) the same command reruns only the samples that had not finished.
    Several judges make a panel; ``judge_repeats`` and ``exclude_self`` are the panel's
    probes (:mod:`trustmh.scoring.panel`).
    ``caps``: ``--max-cost`` / ``--max-tokens-total`` (:mod:`trustmh.run_budget`).
    """
    from inspect_ai import eval_set

    # Imported for what they register: providers and tasks; the hook that sends no call once a
    # cap or a useless judge stopped the run.
    import trustmh._registry
    import trustmh.run_stop  # noqa: F401
    from trustmh._inspect_compat import PrerequisiteError
    from trustmh.scoring.panel import panel_settings

    validate_models(models, judge, user_model)
    if log_dir.exists() and not log_dir.is_dir():
        raise UserError(f"--log-dir {log_dir}: not a folder")
    epochs_arg = epochs_option(epochs, epochs_reducer)
    judges = judge_list(judge)
    batch_plan = plan_batch(batch, models, judges)
    tasks = build_tasks(names, source, data_dir, task_args)
    check_replays(models, model_args, tasks, limit)
    budget = run_budget_of(caps, models, judge, user_model)
    from trustmh.conversation.users import simulated_user_lines

    for line in simulated_user_lines(tasks, models, user_model):
        console.print(line, highlight=False, markup=False)
    for notice in batch_plan.notices:
        console.print(f"batch: {notice}", highlight=False)
    created = not log_dir.exists()
    log_dir.mkdir(parents=True, exist_ok=True)
    lock_file = log_dir / LOCK_FILE
    # One run per log folder: a second would pay every call again and remove logs the first
    # is still writing (remove_superseded_logs).
    with exclusive(lock_file, f"log folder {log_dir}"), enforced(budget):
        started_at = time.time()
        try:
            options = eval_set_options(
                models,
                model_args,
                judge,
                limit,
                max_connections,
                timeout,
                attempt_timeout,
                max_retries,
                display,
                user_model,
                batch_plan,
            )
            options = with_redacting_models(options | ({"epochs": epochs_arg} if epochs_arg is not None else {}))
            check_endpoints(options)
            judge_models = [
                m for role, m in (options.get("model_roles") or {}).items() if role.split("_")[0] == "judge"
            ]
            with panel_settings(judge_repeats, exclude_self):
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
        if budget is not None and budget.budget.stopped:
            from trustmh.run_budget import cap_message

            raise cap_message(budget, finished_samples(logs))
    raise_if_a_judge_stopped(judge_models)
    print_results(logs)
    if budget is not None:
        from trustmh.run_budget import spent_line

        console.print(spent_line(budget), highlight=False)
    if not success:
        raise_on_failed(logs)
    if write_report:
        _write_report(log_dir)
    return logs


@dataclass(frozen=True)
class RunCaps:
    max_cost: float | None = None
    max_tokens_total: int | None = None
    prices: Path | None = None


def run_budget_of(
    caps: RunCaps | None, models: Sequence[str], judge: str | Sequence[str] | None, user_model: str | None
) -> Any:
    """The run's :class:`trustmh.run_budget.RunBudget` (``None``: no cap; nothing imported)."""
    if caps is None or (caps.max_cost is None and caps.max_tokens_total is None):
        return None
    from trustmh.cost.prices import PriceTable
    from trustmh.run_budget import make_run_budget

    every_model = list(dict.fromkeys([*models, *judge_list(judge), *([user_model] if user_model else [])]))
    return make_run_budget(every_model, PriceTable.load(caps.prices), caps.max_cost, caps.max_tokens_total)


@contextmanager
def enforced(budget: Any) -> Iterator[None]:
    if budget is None:
        yield
        return
    from trustmh.run_budget import active

    with active(budget):
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


def epochs_option(epochs: int | None, reducer: str | None) -> Any:
    """inspect's ``epochs`` argument (``None``: each task's own); an unknown reducer is a UserError."""
    if epochs is None and reducer is None:
        return None
    from inspect_ai import Epochs

    import trustmh.scoring.reducers  # noqa: F401  (registers trustmh_mean)

    option = Epochs(epochs or 1, reducer)
    try:
        option.reducer  # noqa: B018  (resolved lazily: resolve now, before any model runs)
    except LookupError:  # inspect's registry error for an unknown name
        raise UserError(
            f"--epochs-reducer: unknown reducer {reducer!r}; use trustmh_mean, mean, median, mode, max, "
            "pass_at_<k> or at_least_<k>"
        ) from None
    return option


def dry_run_tasks(
    names: Sequence[str],
    models: Sequence[str],
    roles: dict[str, str | None],
    limit: int | None,
    data_dir: str | None,
    source: str,
    prices: Path | None,
    epochs: int | None = None,
    epochs_reducer: str | None = None,
    judge_repeats: int = 0,
    task_args: Mapping[str, Any] | None = None,
    batch: str | None = None,
) -> None:
    """``trustmh run --dry-run``: the estimate of :mod:`trustmh.cost.run_estimate`, printed
    (every judge of a panel is a role of its own; ``judge_repeats`` repeats are counted;
    what ``--batch`` sends through a batch API is priced at the batch price)."""
    from trustmh.cost.estimate import print_estimate
    from trustmh.cost.prices import PriceTable
    from trustmh.cost.run_estimate import estimate_run
    from trustmh.scoring.panel import panel_settings

    validate_models(models, [m for r, m in roles.items() if r.startswith("judge") and m], roles.get("user"))
    epochs_option(epochs, epochs_reducer)  # the same refusal of an unknown reducer as the run
    price_table = PriceTable.load(prices)
    bound = {role: model for role, model in roles.items() if model}
    judges = [model for role, model in bound.items() if role.startswith("judge")]
    batch_plan = plan_batch(batch, models, judges)
    for notice in batch_plan.notices:
        console.print(f"batch: {notice}", highlight=False)
    with panel_settings(judge_repeats):
        estimate = estimate_run(
            build_tasks(names, source, data_dir, task_args),
            models,
            bound,
            limit,
            price_table,
            epochs,
            batch_plan.batches,
        )
    print_estimate(console, estimate, f"trustmh run --dry-run ({len(names)} tasks)")


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
        # a slow CPU mid-answer, so it applies when an API model is in the run.
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
