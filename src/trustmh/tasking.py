"""Declaring trustmh tasks: pillar, datasets, metrics and where samples come from.

Every trustmh task is an inspect ``@task`` declared through :func:`trustmh_task`, which
also records a :class:`TaskInfo` so ``trustmh tasks`` and reports know its pillar.

Every task function takes ``source`` and ``data_dir``:

* ``source="starter"``: the items we wrote ourselves, shipped in the package; results are
  marked as *not comparable with the published benchmark*;
* ``source="benchmark"``: the original dataset, found via ``data_dir`` /
  ``$TRUSTMH_DATA_DIR`` / the cache / a download;
* ``source="auto"`` (default): benchmark when a data folder is given (argument or
  ``$TRUSTMH_DATA_DIR``), otherwise starter, so the default run works offline with no data.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal, TypeVar

from inspect_ai import Task, task

from trustmh import PILLARS
from trustmh.errors import UserError
from trustmh.scoring.reducers import trustmh_mean

Source = Literal["auto", "starter", "benchmark"]
SOURCES = ("auto", "starter", "benchmark")
STARTER_NOTE = "starter suite: items written by the trustmh authors; not comparable with the published benchmark"


@dataclass(frozen=True)
class TaskInfo:
    name: str
    pillar: str
    datasets: tuple[str, ...]
    metrics: tuple[str, ...]
    description: str
    needs_judge: bool = False


TASKS: dict[str, TaskInfo] = {}
TASK_FUNCTIONS: dict[str, Callable[..., Task]] = {}

F = TypeVar("F", bound=Callable[..., Task])


def trustmh_task(
    *,
    pillar: str,
    datasets: tuple[str, ...],
    metrics: tuple[str, ...],
    needs_judge: bool = False,
) -> Callable[[F], F]:
    """Register an inspect task with its trustmh catalogue entry."""
    if pillar not in PILLARS and pillar != "dialogue":
        raise ValueError(f"unknown pillar {pillar!r}")

    def decorate(function: F) -> F:
        name = function.__name__
        description = (function.__doc__ or "").strip().splitlines()[0] if function.__doc__ else ""
        TASKS[name] = TaskInfo(name, pillar, datasets, metrics, description, needs_judge)

        @functools.wraps(function)
        def build(*args: Any, **kwargs: Any) -> Task:
            built = function(*args, **kwargs)
            if built.epochs_reducer is None:
                # inspect's default reducer turns unparsed (None) into 0.0, i.e. "wrong";
                # trustmh_mean keeps it unparsed (see trustmh.scoring.reducers).
                built.epochs_reducer = [trustmh_mean()]
            return built

        registered = task(name=name)(build)
        TASK_FUNCTIONS[name] = registered
        return registered  # type: ignore[return-value]

    return decorate


def resolve_source(source: str, data_dir: str | None) -> Literal["starter", "benchmark"]:
    if source not in SOURCES:
        raise UserError(f"source must be one of {', '.join(SOURCES)}, not {source!r}")
    if source == "auto":
        return "benchmark" if (data_dir or os.environ.get("TRUSTMH_DATA_DIR")) else "starter"
    return source  # type: ignore[return-value]


def task_metadata(pillar: str, source: str, datasets: tuple[str, ...], **extra: Any) -> dict[str, Any]:
    """Metadata stored in every log so reports can tell starter from benchmark results."""
    meta: dict[str, Any] = {
        "trustmh_pillar": pillar,
        "trustmh_source": source,
        "trustmh_datasets": list(datasets) if source == "benchmark" else ["starter"],
    }
    if source == "starter":
        meta["trustmh_note"] = STARTER_NOTE
    meta.update(extra)
    return meta


def load_starter(package: str, filename: str) -> list[dict[str, Any]]:
    """Records of a starter JSONL file shipped inside ``package`` (one object per line)."""
    text = resources.files(package).joinpath(filename).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def get_task_info(name: str) -> TaskInfo:
    import trustmh._registry  # noqa: F401  (registers every task)

    short = name.removeprefix("trustmh/")
    if short not in TASKS:
        raise UserError(f"unknown task {name!r}; see `trustmh tasks`")
    return TASKS[short]


def all_tasks() -> list[TaskInfo]:
    import trustmh._registry  # noqa: F401

    return sorted(
        TASKS.values(), key=lambda info: (PILLARS.index(info.pillar) if info.pillar in PILLARS else 99, info.name)
    )
