"""Running trustmh tasks through inspect (eval-set defaults, resume, scoring replays).

What a run prints lives in :mod:`trustmh.run_summary`.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from trustmh.batching import BatchPlan, plan_batch
from trustmh.errors import UserError
from trustmh.locks import exclusive
from trustmh.results import score_summary
from trustmh.run_summary import console, first_line, print_results


def build_tasks(names: Sequence[str], source: str, data_dir: str | None, **task_args: Any) -> list[Any]:
    """Task objects (not registry names): construction validates data before any model call."""
    from trustmh.task_catalog import task_function

    return [task_function(name)(source=source, data_dir=data_dir, **task_args) for name in names]


def raise_on_failed(logs: Sequence[Any]) -> None:
    for log in logs:
        if log.status == "error":
            raise UserError(
                f"task {log.eval.task} on {log.eval.model} failed: {first_line(log.error.message if log.error else None)}"
            )
        if log.status in ("started", "cancelled"):
            raise UserError(
                f"task {log.eval.task} on {log.eval.model} did not finish ({log.status}); rerun the same command to resume"
            )


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


OPENAI_SDK_PROVIDERS = ("openai/", "openai-api/")  # providers built on the openai SDK client


def _embedded(model: str) -> bool:
    return model.startswith("trustmh/") and not model.startswith("trustmh/http")


def model_defaults(models: Sequence[str], model_args: dict[str, Any]) -> dict[str, Any]:
    """Model args trustmh adds unless the user gave them.

    inspect sends ``openai/<name>`` with a name it does not know (e.g. a vLLM or test
    endpoint's model) to OpenAI's Responses API, which OpenAI-compatible servers rarely
    implement; with ``OPENAI_BASE_URL`` pointing elsewhere than OpenAI we use chat
    completions instead (``-M responses_api=true`` restores inspect's choice).

    The openai SDK client also retries 5xx/429 twice on its own, unseen by inspect and on
    top of ``--max-retries``; we turn that off (``max_retries=0`` is a client argument) so
    inspect's retry loop, which logs each retry and honours ``--max-retries`` and
    ``--timeout``, is the only one.

    ``-M config=FILE`` of ``trustmh/http`` reaches the provider as ``http_config``.
    """
    import os

    args = dict(model_args)
    if any(model.startswith("trustmh/http") for model in models) and "config" in args:
        args["http_config"] = args.pop("config")  # `config` is taken by inspect's get_model
    if any(model.startswith(OPENAI_SDK_PROVIDERS) for model in models) and "max_retries" not in args:
        args["max_retries"] = 0
    base_url = os.environ.get("OPENAI_BASE_URL", "")
    if (
        any(model.startswith("openai/") for model in models)
        and base_url
        and "api.openai.com" not in base_url
        and "responses_api" not in args
    ):
        args["responses_api"] = False
    return args


def _is_model_provider(name: str) -> bool:
    from trustmh._inspect_compat import registry_find, registry_unqualified_name

    return bool(registry_find(lambda info: info.type == "modelapi" and registry_unqualified_name(info) == name))


def judge_list(judge: str | Sequence[str] | None) -> list[str]:
    """``--judge`` given once (a string) or several times (a panel) as a list."""
    return [judge] if isinstance(judge, str) else list(judge or [])


def validate_models(models: Sequence[str], judge: str | Sequence[str] | None, user_model: str | None = None) -> None:
    """Refuse a malformed model name or an unknown provider before anything is written."""
    import inspect_ai.model  # noqa: F401  (registers inspect's providers)

    import trustmh._registry  # noqa: F401  (and ours)

    others = [("judge", j) for j in judge_list(judge)] + ([("user_model", user_model)] if user_model else [])
    for argument, model in [*(("models", m) for m in models), *others]:
        provider, sep, name = model.partition("/")
        if not sep or not provider or not name:
            raise UserError(
                f"{model!r}: expected PROVIDER/MODEL, e.g. openai/gpt-4o-mini or trustmh/smollm2", argument=argument
            )
        if not _is_model_provider(provider):
            raise UserError(
                f"{model!r}: unknown model provider {provider!r} (inspect providers, e.g. openai, anthropic, vllm, trustmh)",
                argument=argument,
            )


def model_roles(batch: dict[str, Any] | None = None, **roles: str | None) -> dict[str, Any] | None:
    """inspect model roles (``judge``, ``user`` = the simulated user of conversation tasks),
    each with the same endpoint defaults as the models under test (the user's ``-M`` args are for
    the models under test and never reach these roles) and its ``batch`` setting, if any."""
    bound: dict[str, Any] = {}
    for role, model in roles.items():
        if not model:
            continue
        args = model_defaults([model], {})
        batched = (batch or {}).get(role)
        if not args and batched is None:
            bound[role] = model
            continue
        from inspect_ai.model import GenerateConfig, get_model

        config = GenerateConfig(batch=batched) if batched is not None else None
        bound[role] = get_model(model, role=role, config=config, **args)
    return bound or None


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
) -> list[Any]:
    """eval-set over the tasks × models, so rerunning the same command resumes.

    Resuming: completed samples are flushed to the log as they finish, so after a crash
    (even SIGKILL) the same command reruns only the samples that had not finished.
    Several judges make a panel; ``judge_repeats`` and ``exclude_self`` are the panel's
    probes (:mod:`trustmh.scoring.panel`).
    """
    from inspect_ai import eval_set

    import trustmh._registry  # noqa: F401  (providers and tasks)
    from trustmh._inspect_compat import PrerequisiteError
    from trustmh.scoring.panel import panel_settings

    validate_models(models, judge, user_model)
    if log_dir.exists() and not log_dir.is_dir():
        raise UserError(f"--log-dir {log_dir}: not a folder")
    epochs_arg = epochs_option(epochs, epochs_reducer)
    judges = judge_list(judge)
    batch_plan = plan_batch(batch, models, judges[0] if judges else None)
    tasks = build_tasks(names, source, data_dir)
    check_replays(models, model_args, tasks, limit)
    for notice in batch_plan.notices:
        console.print(f"batch: {notice}", highlight=False)
    created = not log_dir.exists()
    log_dir.mkdir(parents=True, exist_ok=True)
    lock_file = log_dir / LOCK_FILE
    # One run per log folder: a second would pay every call again and remove logs the first
    # is still writing (remove_superseded_logs).
    with exclusive(lock_file, f"log folder {log_dir}"):
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
    print_results(logs)
    if not success:
        raise_on_failed(logs)
    if write_report:
        _write_report(log_dir)
    return logs


def with_redacting_models(options: dict[str, Any]) -> dict[str, Any]:
    """``options`` with every model (and the judge) built now and wrapped so that an error
    echoing a key is redacted before inspect records it (``models/redacting.py``)."""
    from trustmh.models.redacting import get_redacting_model, install_log_redaction, redacting_model

    install_log_redaction()
    options = dict(options)
    model_args = options.pop("model_args", None) or {}
    options["model"] = [sent_as_logged(get_redacting_model(name, **model_args)) for name in options["model"]]
    roles = options.get("model_roles") or {}
    options["model_roles"] = {
        role: sent_as_logged(
            redacting_model(model) if not isinstance(model, str) else get_redacting_model(model, role=role)
        )
        for role, model in roles.items()
    } or None
    return options


def sent_as_logged(model: Any) -> Any:
    """The settings a model is sent are the ones the log records.

    inspect treats an ``openai/<name>`` it does not recognise as OpenAI's newest reasoning model
    and silently drops ``temperature`` (the log still says 0.0). On an OpenAI-compatible server
    (vLLM, llama.cpp, ...) such a name is that server's model, not an OpenAI codename: the
    temperature is sent. Names inspect recognises (gpt-5, o-series) keep its rules.
    """
    import os

    base_url = os.environ.get("OPENAI_BASE_URL", "") or str(getattr(model.api, "base_url", "") or "")
    if str(model).startswith("openai/") and base_url and "api.openai.com" not in base_url:
        api = model.api
        if hasattr(api, "is_latest"):
            api.is_latest = lambda: False
    return model


def check_endpoints(options: dict[str, Any]) -> None:
    """Stop within seconds, naming the endpoint, if a model's or the judge's server cannot be reached."""
    from trustmh.endpoints import check_reachable, model_endpoint

    roles = options.get("model_roles") or {}
    flags = {"judge": "--judge", "user": "--user-model"} | {f"judge_{i}": "--judge" for i in range(2, 100)}
    for option, model in [
        *(("--model", m) for m in options["model"]),
        *((flags.get(role, role), m) for role, m in roles.items()),
    ]:
        url = model_endpoint(str(model), getattr(model.api, "base_url", None))
        if url:
            check_reachable(url, f"{option} {model}")


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
) -> None:
    """``trustmh run --dry-run``: the estimate of :mod:`trustmh.cost.run_estimate`, printed."""
    from trustmh.cost.estimate import print_estimate
    from trustmh.cost.prices import PriceTable
    from trustmh.cost.run_estimate import estimate_run

    validate_models(models, [m for r, m in roles.items() if r.startswith("judge") and m], roles.get("user"))
    price_table = PriceTable.load(prices)
    bound = {role: model for role, model in roles.items() if model}
    estimate = estimate_run(build_tasks(names, source, data_dir), models, bound, limit, price_table)
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

    api_models = [model for model in models if not _embedded(model)]
    batch = batch or BatchPlan()
    if batch.model is not None or batch.judge is not None:
        timeout = timeout if timeout is not None else 0
    if batch.model is not None:
        attempt_timeout = attempt_timeout if attempt_timeout is not None else 0
    return dict(
        **({"batch": batch.model} if batch.model is not None else {}),
        model=list(models),
        model_args=model_defaults(models, model_args or {}),
        model_roles=model_roles(batch={"judge": batch.judge}, **judge_roles(judge_list(judge)), user=user_model),
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


def remove_superseded_logs(log_dir: Path, logs: Sequence[Any], started_at: float) -> list[str]:
    """Delete the "started" logs a killed run left behind once this run has finished them.

    inspect keeps a crashed run's "started" log next to the log of the run that resumed
    it (it cannot tell a dead writer from a live one), so every finished sample would be in
    the folder twice. We remove such a log only when all of these hold: the resumed log of
    the same task finished with status "success", the old log was last written before this
    run started (no live writer), and each of its samples is in the new log.
    Returns the removed paths.
    """
    from inspect_ai.log import list_eval_logs, read_eval_log, read_eval_log_sample_summaries

    from trustmh._inspect_compat import cleanup_sample_buffers_for_log

    finished = {log.eval.task_id: log for log in logs if log.status == "success" and log.location}
    if not finished:
        return []

    def local(name: str) -> str:
        return name.removeprefix("file://")

    current = {local(log.location) for log in logs if log.location}
    removed: list[str] = []
    for info in list_eval_logs(str(log_dir), recursive=False):
        mtime = (info.mtime or 0) / (1000 if (info.mtime or 0) > 1e11 else 1)  # ms or s by version
        if local(info.name) in current or mtime >= started_at:
            continue
        try:
            header = read_eval_log(info.name, header_only=True)
        except Exception:  # noqa: BLE001 - not a log we can judge: leave it
            continue
        newer = finished.get(header.eval.task_id)
        if header.status != "started" or newer is None:
            continue
        try:
            old_ids = {(s.id, s.epoch) for s in read_eval_log_sample_summaries(info.name)}
            new_ids = {(s.id, s.epoch) for s in read_eval_log_sample_summaries(newer.location)}
        except Exception:  # noqa: BLE001 - an unreadable sample list: keep the log rather than guess
            continue
        if not old_ids <= new_ids:
            continue
        try:
            cleanup_sample_buffers_for_log(info.name)
        except Exception:  # noqa: BLE001 - a leftover buffer only costs disk space
            pass
        path = Path(local(info.name))
        path.unlink(missing_ok=True)
        removed.append(str(path))
    return removed


def _write_report(log_dir: Path) -> None:
    from trustmh.report import build_report

    path = build_report([log_dir], log_dir / "report.html")
    console.print(f"report: {path}")


def score_responses(
    task: str,
    responses: Path,
    data_dir: str | None,
    judge: str | None,
    source: str,
    log_dir: Path | None,
) -> dict[str, object]:
    """Re-score recorded outputs with the replay model; returns the ``trustmh score`` JSON."""
    from inspect_ai import eval

    import trustmh._registry  # noqa: F401  (the trustmh/replay provider)

    (built,) = build_tasks([task], source, data_dir)
    try:
        _check_recordings(task, built, responses)
    except UserError as error:
        if (built.metadata or {}).get("trustmh_source") != "starter":
            raise
        # The usual cause: outputs recorded on the benchmark, scored against the starter items.
        raise UserError(
            f"{error} — scored against the starter suite because no benchmark data was given; "
            "add --data-dir DIR (or set TRUSTMH_DATA_DIR) to score against the benchmark dataset"
        ) from None
    roles = with_redacting_models({"model": [], "model_roles": model_roles(judge=judge)})["model_roles"]
    # Without --log-dir the logs (prompts and replies) go to a private temporary folder that is
    # removed afterwards, whatever happens: the JSON summary is the result.
    temporary = None if log_dir else tempfile.mkdtemp(prefix="trustmh-score-")
    try:
        logs = eval(
            built,
            model=f"trustmh/replay/{responses.stem}",
            model_args={"responses": str(responses)},
            model_roles=roles,
            log_dir=str(log_dir or temporary),
            display="none",
            fail_on_error=True,
        )
        raise_on_failed(logs)
        return score_summary(logs[0])
    finally:
        if temporary is not None:
            shutil.rmtree(temporary, ignore_errors=True)


def _last_user_text(sample: Any) -> str:
    if isinstance(sample.input, str):
        return sample.input
    for message in reversed(sample.input):
        if getattr(message, "role", None) == "user":
            return str(message.text)
    return ""


def _check_recordings(
    task: str, built: Any, responses: Path, label: str | None = None, limit: int | None = None
) -> None:
    """Validate the task's recordings against its samples before any model call or scoring."""
    from trustmh.models.replay import Recordings, task_file

    recordings = Recordings.load(task_file(responses, task, label))
    samples = [(str(sample.id), _last_user_text(sample)) for sample in built.dataset]
    recordings.check_covers(task, samples, limit)


def check_replays(models: Sequence[str], model_args: dict[str, Any], tasks: Sequence[Any], limit: int | None) -> None:
    """A replayed model must have a record for every sample it will be asked about: one line
    naming the file, the task and the first missing id, instead of an error per sample."""
    responses = model_args.get("responses")
    for model in models:
        if not model.startswith("trustmh/replay") or not responses:
            continue
        label = model.removeprefix("trustmh/replay").strip("/") or None
        for task in tasks:
            _check_recordings(task.name.removeprefix("trustmh/"), task, Path(str(responses)), label, limit)
