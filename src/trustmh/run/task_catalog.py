"""The catalogue of trustmh tasks: every registered task, looked up by name or listed by group.

Importing this module imports every task (through :mod:`trustmh._registry`, inspect's entry
point), so callers that only need the CLI to start import it lazily.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

from inspect_ai import Task
from inspect_ai.model import GenerateConfig

import trustmh._registry  # noqa: F401  (importing it registers every task and provider)
from trustmh import TASK_GROUPS
from trustmh.core.errors import UserError
from trustmh.tasking.declare import TASK_FUNCTIONS, TASKS, TaskInfo


def get_task_info(name: str) -> TaskInfo:
    short = name.removeprefix("trustmh/")
    if short not in TASKS:
        raise UserError(f"unknown task {name!r}; see `trustmh tasks`")
    return TASKS[short]


def task_function(name: str) -> Callable[..., Task]:
    """The registered task function (call it with task arguments to build the Task)."""
    return TASK_FUNCTIONS[get_task_info(name).name]


# Set by their own options (--source, --data-dir), never through -T.
RESERVED_TASK_ARGS = ("source", "data_dir")


def task_parameters(name: str) -> list[str]:
    """The arguments ``-T`` can set on task ``name``."""
    names = inspect.signature(task_function(name)).parameters
    return [parameter for parameter in names if parameter not in RESERVED_TASK_ARGS]


def task_args_for(names: list[str], task_args: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Each task's share of ``-T`` arguments: those its function takes. An argument no selected
    task takes is a user error (a typo would otherwise be silently ignored)."""
    for key in task_args:
        if key in RESERVED_TASK_ARGS:
            raise UserError(f"-T {key}: set it with --{key.replace('_', '-')}, not -T")
    accepted = {name: task_parameters(name) for name in names}
    for key in task_args:
        if not any(key in parameters for parameters in accepted.values()):
            known = sorted({parameter for parameters in accepted.values() for parameter in parameters})
            raise UserError(f"-T {key}: no selected task takes this argument (they take: {', '.join(known) or 'none'})")
    return {name: {k: v for k, v in task_args.items() if k in accepted[name]} for name in names}


def all_tasks() -> list[TaskInfo]:
    """Every task, in group order (the pillars first), then by name."""
    return sorted(TASKS.values(), key=lambda info: (TASK_GROUPS.index(info.pillar), info.name))


def describe_config(config: GenerateConfig, epochs: int = 1) -> str:
    """``max_tokens 256, temperature 0`` (plus top_p and samples per item where set)."""
    parts = [f"max_tokens {config.max_tokens}", f"temperature {config.temperature:g}"]
    if config.top_p is not None:
        parts.append(f"top_p {config.top_p:g}")
    if epochs > 1:
        parts.append(f"mean of {epochs} samples")
    return ", ".join(parts)


def generation_table() -> list[str]:
    """The rows of ``docs/generation_settings.md``: task | starter | benchmark | upstream | why."""
    rows = []
    for info in all_tasks():
        settings = info.generation
        if settings is None:
            continue
        starter = describe_config(settings.starter)
        benchmark = describe_config(settings.benchmark, settings.epochs)
        upstream = settings.upstream or "not looked up yet"
        why = settings.why or "one setting for both sources"
        rows.append(f"| `{info.name}` | {starter} | {benchmark} | {upstream} | {why} |")
    return rows
