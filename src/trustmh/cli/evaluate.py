"""``trustmh tasks``, ``trustmh run``, ``trustmh score`` and ``trustmh view``."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

from trustmh import TASK_GROUPS
from trustmh.cli.common import (
    JSON_METAVAR,
    console,
    err_console,
    existing_data_dir,
    json_option,
    usd_amount,
    user_errors,
)
from trustmh.core.errors import UserError, is_secret_name, redact, register_secret
from trustmh.core.files import write_json
from trustmh.core.paths import check_input_file, check_output_file
from trustmh.run.config import DEFAULT_MODEL, RunCaps, RunConfig

DEFAULT_LOG_DIR = "logs"


def register(app: typer.Typer) -> None:
    app.command("tasks")(tasks_command)
    app.command("run")(run_command)
    app.command("score")(score_command)
    app.command("view")(view_command)


@user_errors
def tasks_command(
    as_json: Annotated[str | None, json_option("the task list (or, with --protocol, the protocol)")] = None,
    data_dir: Annotated[
        Path | None, typer.Option(help="Also count benchmark samples found in this data folder.")
    ] = None,
    protocol: Annotated[
        str | None,
        typer.Option(
            "--protocol",
            help="Show how TASK's benchmark mode follows upstream: pinned files, what is verbatim, each deviation.",
        ),
    ] = None,
) -> None:
    """List every task with its pillar, datasets, metrics and samples available offline.

    Example: trustmh tasks --json tasks.json

    Example: trustmh tasks --protocol privacy_psyleak
    """
    destination = as_json
    if protocol is not None:
        from trustmh.cli.protocol_view import show_protocol

        show_protocol(protocol, destination)
        return
    from trustmh.run.catalog_view import samples_note, task_rows, tasks_table

    folder = existing_data_dir(data_dir)
    rows = task_rows(folder)
    if destination is not None:
        write_json(rows, destination)
        return
    console.print(tasks_table(rows))
    console.print(samples_note(folder), highlight=False, markup=False, soft_wrap=not console.is_terminal)


def _selected_tasks(tasks: list[str], pillars: list[str]) -> list[str]:
    from trustmh.run.task_catalog import all_tasks, get_task_info

    for pillar in pillars:
        if pillar not in TASK_GROUPS:
            raise UserError(f"unknown pillar {pillar!r}; pillars and task groups: {', '.join(TASK_GROUPS)}")
    chosen = [get_task_info(name).name for name in tasks]
    chosen += [info.name for info in all_tasks() if info.pillar in pillars and info.name not in chosen]
    if not tasks and not pillars:
        chosen = [info.name for info in all_tasks() if info.in_default_run]
    return chosen


@user_errors
def run_command(
    tasks: Annotated[
        list[str] | None,
        typer.Argument(
            help="Tasks to run (default: every pillar task and every conversation task; see `trustmh tasks`)."
        ),
    ] = None,
    pillar: Annotated[
        list[str] | None, typer.Option("--pillar", "-p", help="Run every task of this pillar (repeatable).")
    ] = None,
    model: Annotated[
        list[str] | None,
        typer.Option(
            "--model", "-m", help=f"Model(s) under test, inspect syntax (repeatable; default {DEFAULT_MODEL})."
        ),
    ] = None,
    model_arg: Annotated[
        list[str] | None,
        typer.Option("--model-arg", "-M", help="Model argument KEY=VALUE (e.g. responses=FILE for trustmh/replay)."),
    ] = None,
    judge: Annotated[
        list[str] | None,
        typer.Option(
            help="Judge model for judge-scored metrics (never the model under test unless you say so); "
            "repeat for a panel: scales are averaged, votes need a strict majority, agreement is reported."
        ),
    ] = None,
    judge_repeats: Annotated[
        int,
        typer.Option(
            min=0, help="Ask every judgement this many more times (stability probe: share of changed verdicts)."
        ),
    ] = 0,
    exclude_self: Annotated[
        bool,
        typer.Option(
            "--exclude-self",
            help="Leave a judge of the model's own family out of its panel (self-preference); with none left: not scored.",
        ),
    ] = False,
    user_model: Annotated[
        str | None,
        typer.Option(
            help="Simulated user of conversation tasks (inspect role 'user'; default: the model under test plays it)."
        ),
    ] = None,
    task_arg: Annotated[
        list[str] | None,
        typer.Option(
            "--task-arg",
            "-T",
            help="Task argument KEY=VALUE for every selected task that takes it, e.g. -T max_tokens=200 "
            "(`trustmh tasks --json -` lists each task's arguments).",
        ),
    ] = None,
    limit: Annotated[int | None, typer.Option(min=1, help="At most this many samples per task.")] = None,
    log_dir: Annotated[Path, typer.Option(help="Where logs go; rerunning the same command resumes.")] = Path(
        DEFAULT_LOG_DIR
    ),
    data_dir: Annotated[
        Path | None, typer.Option(help="Folder of benchmark datasets (one folder per dataset); default: starter items.")
    ] = None,
    allow_modified: Annotated[
        bool, typer.Option(help="Run on --data-dir files whose sha256 differs from the catalogue's; marked MODIFIED.")
    ] = False,
    source: Annotated[str, typer.Option(help="auto | starter | benchmark")] = "auto",
    max_connections: Annotated[
        int | None,
        typer.Option(
            min=1, help="Concurrent requests per model (API models; default: inspect's adaptive concurrency)."
        ),
    ] = None,
    report: Annotated[bool, typer.Option(help="Write report.html next to the logs at the end.")] = True,
    timeout: Annotated[
        int | None, typer.Option(min=1, help="Seconds a model call may take in all, retries included (default 600).")
    ] = None,
    attempt_timeout: Annotated[
        int | None,
        typer.Option(
            min=1, help="Seconds one attempt may take before it is abandoned and retried (API models; default 180)."
        ),
    ] = None,
    max_retries: Annotated[
        int | None,
        typer.Option(
            min=0, help="Retries of a failed model call (5xx, 429, timeouts) before the sample errors (default 6)."
        ),
    ] = None,
    epochs: Annotated[int | None, typer.Option(min=1, help="Run every sample this many times.")] = None,
    epochs_reducer: Annotated[
        str | None,
        typer.Option(
            help="How epochs of a sample are combined: trustmh_mean (default), mean, median, mode, max, "
            "pass_at_<k>, at_least_<k>. Unparsed answers stay unparsed under each."
        ),
    ] = None,
    display: Annotated[
        str,
        typer.Option(
            help="log (default: trustmh's progress — tasks, samples, elapsed, ETA — and a line per finished task, "
            "plus inspect's warnings), rich or full (inspect's live panels), plain, none."
        ),
    ] = "log",
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Print requests, tokens and estimated cost per model and role; call none.")
    ] = False,
    prices: Annotated[
        Path | None,
        typer.Option(
            help="Prices for --dry-run and --max-cost: YAML/JSON {MODEL: {input: N, output: N}} per 1M tokens "
            "(optional batch: SHARE charged with --batch; docs/cost.md)."
        ),
    ] = None,
    batch: Annotated[
        str | None,
        typer.Option(help="Provider batch APIs: all | SIZE | model | judge | judge=SIZE,model (docs/batch.md)."),
    ] = None,
    max_cost: Annotated[
        float | None,
        typer.Option(
            min=0,
            callback=usd_amount,
            help="Stop before the run's cost (USD, all models and roles; --batch calls at the batch price) could "
            "cross this; rerun resumes.",
        ),
    ] = None,
    max_tokens_total: Annotated[
        int | None,
        typer.Option(min=1, help="Stop before the run's prompt + completion tokens could cross this; rerun resumes."),
    ] = None,
) -> None:
    """Run tasks (inspect eval-set underneath) and print a one-line-per-task summary.

    Several -m run every task on each model into the same log folder; rerunning with one
    more -m adds that model and resumes the others.

    Example: trustmh run --pillar privacy --limit 5

    Example: trustmh run ethics_ethicmh -m trustmh/replay/a -m trustmh/replay/b -M responses=DIR --data-dir DATA

    Example (a judge panel with its probes): trustmh run --pillar crisis -m openai/gpt-4o-mini
    --judge anthropic/claude-sonnet-4-5 --judge google/gemini-2.5-flash --judge-repeats 1 --exclude-self

    Example: trustmh run -m openai/gpt-4o-mini --judge openai/gpt-4o --max-cost 20 (exit 3 at the cap; rerun resumes)

    Example: trustmh run crisis_psychosis_bench --data-dir DATA -T condition=explicit -T max_tokens=300
    """
    from trustmh.run.runner import dry_run_tasks, run_tasks

    config = RunConfig(
        tasks=tuple(_selected_tasks(tasks or [], pillar or [])),
        models=tuple(model or [DEFAULT_MODEL]),
        model_args=_parse_pairs(model_arg or [], "--model-arg"),
        judges=tuple(judge or []),
        judge_repeats=judge_repeats,
        exclude_self=exclude_self,
        user_model=user_model,
        limit=limit,
        log_dir=log_dir,
        data_dir=existing_data_dir(data_dir),
        allow_modified=allow_modified,
        source=source,
        task_args=_parse_pairs(task_arg or [], "--task-arg"),
        epochs=epochs,
        epochs_reducer=epochs_reducer,
        max_connections=max_connections,
        timeout=timeout,
        attempt_timeout=attempt_timeout,
        max_retries=max_retries,
        display=display,
        batch=batch,
        caps=RunCaps(max_cost, max_tokens_total, prices),
        write_report=report,
    )
    if dry_run:
        dry_run_tasks(config)
        return
    config.check()
    # stdout: stderr carries nothing but the one-line error when the input is bad
    console.print(
        f"running {len(config.tasks)} task{'s' if len(config.tasks) != 1 else ''} × {len(config.models)} "
        f"model{'s' if len(config.models) != 1 else ''} into {log_dir}/"
    )
    with _progress(display, len(config.tasks) * len(config.models)):
        run_tasks(config)


@contextmanager
def _progress(display: str, tasks_total: int) -> Iterator[None]:
    """trustmh's progress line under the default display (the others are inspect's own)."""
    if display != "log":
        yield
        return
    from trustmh.cli.run_progress import shown

    with shown(tasks_total):
        yield


_NUMBER = re.compile(r"^-?(0|[1-9]\d*)(\.\d+)?$")  # no leading zeros: "0123" stays text


def _coerce(value: str) -> object:
    """true/false/null and plain numbers as inspect's own ``-M`` parses them; the rest as text.

    Without this ``-M responses_api=false`` reached the provider as the (true) string "false".
    Keys and paths are never touched.
    """
    lowered = value.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("null", "none"):
        return None
    if _NUMBER.match(value.strip()):
        return float(value) if "." in value else int(value)
    return value


def _parse_pairs(pairs: list[str], option: str) -> dict[str, object]:
    parsed: dict[str, object] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            # The value may be a key: name the option and the key, never echo the value.
            raise UserError(f"{option} expects KEY=VALUE, got {redact(pair)!r}")
        if key.strip() in parsed:
            raise UserError(f"{option} {key.strip()!r} given twice")
        if is_secret_name(key.strip()):
            register_secret(value)  # redacted from every error and log line from now on
        parsed[key.strip().replace("-", "_")] = _coerce(value)
    return parsed


@user_errors
def score_command(
    task: Annotated[str, typer.Argument(help="Task to score, e.g. privacy_psyleak.")],
    responses: Annotated[
        Path,
        typer.Option(
            help='Recorded outputs: JSONL of {"id", "output"} or {"input", "output"}, or a folder of <task>.jsonl.'
        ),
    ],
    json_out: Annotated[
        str, typer.Option("--json", metavar=JSON_METAVAR, help="Write the JSON summary to FILE, or - for stdout.")
    ] = "-",
    data_dir: Annotated[Path | None, typer.Option(help="Folder of benchmark datasets.")] = None,
    judge: Annotated[str | None, typer.Option(help="Judge model for judge-scored metrics.")] = None,
    source: Annotated[str, typer.Option(help="auto | starter | benchmark")] = "auto",
    log_dir: Annotated[
        Path | None, typer.Option(help="Keep the inspect log here (default: a temporary folder).")
    ] = None,
) -> None:
    """Score recorded outputs without calling any model.

    Example: trustmh score privacy_psyleak --responses gpt-4o-mini.jsonl --data-dir DATA --json -
    """
    from trustmh.run.replay_scoring import score_responses

    if not responses.is_dir():  # a folder of <task>.jsonl is checked by the replay model, naming the task
        check_input_file(responses, "a JSONL file of recorded outputs, or a folder of <task>.jsonl")
    if json_out != "-":
        check_output_file(Path(json_out), "--json")  # before scoring, not after
    summary = score_responses(
        task, responses, data_dir=existing_data_dir(data_dir), judge=judge, source=source, log_dir=log_dir
    )
    if summary.get("source") == "starter":
        err_console.print(
            "note: scored against the starter suite (items written by the trustmh authors), not the benchmark; "
            "add --data-dir DIR to score against the benchmark dataset"
        )
    write_json(summary, json_out)


@user_errors
def view_command(
    log_dir: Annotated[Path, typer.Option(help="Log folder to browse.")] = Path(DEFAULT_LOG_DIR),
    port: Annotated[int, typer.Option(help="Port of the local viewer.")] = 7575,
) -> None:
    """Open inspect's log viewer on the log folder (local only).

    Example: trustmh view --log-dir logs
    """
    if not log_dir.is_dir():
        raise UserError(f"{log_dir}: no such log folder (run `trustmh run` first)")
    inspect = Path(sys.executable).with_name("inspect")
    command = [
        str(inspect) if inspect.exists() else "inspect",
        "view",
        "--log-dir",
        str(log_dir),
        "--port",
        str(port),
        "--host",
        "127.0.0.1",
    ]
    err_console.print(f"inspect view on http://127.0.0.1:{port} (Ctrl+C to stop)")
    raise typer.Exit(subprocess.call(command))
