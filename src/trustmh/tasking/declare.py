"""Declaring trustmh tasks: group, datasets, metrics, generation settings and the sample source.

Every trustmh task is an inspect ``@task`` declared through :func:`trustmh_task`, which
records a :class:`TaskInfo` (so ``trustmh tasks`` and reports know its group) and does the
work every task shares, so the task function only builds its dataset and scorer:

* it resolves ``source`` before the function runs, so the function always receives
  ``"starter"`` or ``"benchmark"``:

  - ``"starter"``: the items we wrote ourselves, shipped in the package; results are
    marked as *not comparable with the published benchmark*;
  - ``"benchmark"``: the original dataset, found via ``data_dir`` / ``$TRUSTMH_DATA_DIR`` /
    the cache / a download;
  - ``"auto"`` (default): benchmark when a data folder is given (argument or
    ``$TRUSTMH_DATA_DIR``), otherwise starter, so the default run works offline;

* it stamps the log metadata (``trustmh_pillar``, ``trustmh_source``, ``trustmh_datasets``)
  from the decorator's own dataset list; what the task puts in ``Task.metadata`` is added to it;
* it sets the generation config from the declared :class:`Generation` for that source
  (the starter suite's budgets are sized for the 135M embedded model, the benchmark's
  follow upstream: see ``docs/generation_settings.md``); a ``max_tokens`` or ``greedy``
  parameter of the task function, when it has one and it is set, overrides them;
* it installs :func:`trustmh.scoring.reducers.trustmh_mean` as the epoch reducer.

A minimal task (see ``docs/contributing.md``)::

    @trustmh_task(pillar="ethics", datasets=("ethicmh",), metrics=("accuracy",), generation=greedy(64))
    def ethics_example(source: str = "auto", data_dir: str | None = None) -> Task:
        return Task(dataset=my_dataset(source, data_dir), scorer=my_scorer())

Looking tasks up by name lives in :mod:`trustmh.run.task_catalog`, which imports every task;
this module imports no task, so pillars can import it without an import circle.
"""

from __future__ import annotations

import functools
import inspect as pyinspect
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar, cast

from inspect_ai import Task, task
from inspect_ai.model import GenerateConfig

from trustmh import PILLARS, TASK_GROUPS
from trustmh.core.errors import UserError
from trustmh.scoring.reducers import trustmh_mean

Source = Literal["auto", "starter", "benchmark"]
SOURCES = ("auto", "starter", "benchmark")
STARTER_NOTE = "starter suite: items written by the trustmh authors; not comparable with the published benchmark"


def greedy(max_tokens: int) -> GenerateConfig:
    """Deterministic decoding (temperature 0) with a token budget: the setting of most tasks."""
    return GenerateConfig(max_tokens=max_tokens, temperature=0.0)


@dataclass(frozen=True)
class Generation:
    """A task's generation settings per source, and where the benchmark's come from.

    ``starter``: sized for the 135M embedded model running the starter suite offline.
    ``benchmark``: the upstream benchmark's own settings (``upstream`` says whose and where),
    or ours where upstream states none; ``why`` explains any difference from upstream.
    ``epochs``: samples per item in benchmark mode where upstream averages several.
    ``no_max_tokens_with``: a boolean task argument that follows an upstream sending no token
    limit at all (ConfAIde's own eval.py): when it is true, none is sent.
    """

    starter: GenerateConfig
    benchmark: GenerateConfig
    upstream: str = ""
    why: str = ""
    epochs: int = 1
    no_max_tokens_with: str | None = None

    def config(self, source: str) -> GenerateConfig:
        return self.starter if source == "starter" else self.benchmark

    def max_tokens(self, source: str, override: int | None = None) -> int | None:
        """The token budget for ``source``, or ``override`` when given (for solvers that call a model themselves)."""
        return override if override is not None else self.config(source).max_tokens


# Benchmark-mode budgets where upstream states none (see docs/generation_settings.md).
# A judged free-text answer gets room to finish, so the judge never rates a truncated one.
JUDGED_TOKENS = 1024
# A label, letter or rating needs a few tokens; this leaves room for a model that explains
# first, so no answer is cut off before it names its choice.
ANSWER_TOKENS = 256
NOT_PUBLIC = "unknown: TrustMH-Bench's archive for this pillar could not be read"


JUDGED_WHY = "a bounded budget keeps cost finite; 1024 tokens let the answer finish before it is judged"


def judged_free_text(starter_tokens: int, upstream: str = NOT_PUBLIC, why: str = JUDGED_WHY) -> Generation:
    """A free-text answer a judge (or detector) reads: greedy, :data:`JUDGED_TOKENS` in benchmark mode."""
    return Generation(starter=greedy(starter_tokens), benchmark=greedy(JUDGED_TOKENS), upstream=upstream, why=why)


def short_answer(starter_tokens: int, upstream: str = NOT_PUBLIC) -> Generation:
    """A label, option letter or verdict: greedy, :data:`ANSWER_TOKENS` in benchmark mode."""
    return Generation(
        starter=greedy(starter_tokens),
        benchmark=greedy(ANSWER_TOKENS),
        upstream=upstream,
        why="256 tokens leave room for a model that explains before answering",
    )


@dataclass(frozen=True)
class TaskInfo:
    name: str
    pillar: str
    datasets: tuple[str, ...]
    metrics: tuple[str, ...]
    description: str
    needs_judge: bool = False
    generation: Generation | None = field(default=None, compare=False)
    in_default_run: bool = True  # a plain `trustmh run` (no tasks, no --pillar) runs it


TASKS: dict[str, TaskInfo] = {}
TASK_FUNCTIONS: dict[str, Callable[..., Task]] = {}

F = TypeVar("F", bound=Callable[..., Task])


def trustmh_task(
    *,
    pillar: str,
    datasets: tuple[str, ...],
    metrics: tuple[str, ...],
    generation: Generation | GenerateConfig | None = None,
    needs_judge: bool = False,
    benchmark_file_args: tuple[str, ...] = (),
    in_default_run: bool | None = None,
) -> Callable[[F], F]:
    """Register an inspect task with its trustmh catalogue entry (see the module docstring).

    ``pillar``: one of :data:`trustmh.TASK_GROUPS` (the eight pillars, or ``dialogue``).
    ``datasets``: the registry datasets the benchmark source reads; a task whose run uses
    only some of them (chosen by a parameter) lists those in ``Task.metadata["trustmh_datasets"]``.
    ``generation``: a :class:`Generation`, or one ``GenerateConfig`` for both sources.
    ``benchmark_file_args``: parameters naming a user's own benchmark file; when one is set,
    the task runs in benchmark mode whatever ``source`` says.
    ``in_default_run``: whether a plain ``trustmh run`` runs it; by default the tasks of the eight
    pillars do and the ``dialogue`` group's do not.
    """
    if pillar not in TASK_GROUPS:
        raise ValueError(f"unknown task group {pillar!r}; expected one of {', '.join(TASK_GROUPS)}")
    settings = (
        Generation(starter=generation, benchmark=generation) if isinstance(generation, GenerateConfig) else generation
    )

    def decorate(function: F) -> F:
        name = function.__name__
        signature = pyinspect.signature(function)
        if not {"source", "data_dir"} <= signature.parameters.keys():
            raise TypeError(f"task {name} must take `source` and `data_dir` parameters")
        description = (function.__doc__ or "").strip().splitlines()[0] if function.__doc__ else ""
        default_run = pillar in PILLARS if in_default_run is None else in_default_run
        TASKS[name] = TaskInfo(name, pillar, datasets, metrics, description, needs_judge, settings, default_run)

        @functools.wraps(function)
        def build(*args: Any, **kwargs: Any) -> Task:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            arguments = bound.arguments
            user_file = any(arguments.get(arg) for arg in benchmark_file_args)
            chosen = "benchmark" if user_file else resolve_source(arguments["source"], arguments["data_dir"])
            arguments["source"] = chosen
            built = function(*bound.args, **bound.kwargs)
            built.metadata = _stamp(name, pillar, chosen, datasets, built.metadata)
            from trustmh.tasking.protocol import protocol_of

            protocol = protocol_of(name)
            if protocol is not None:  # how this run relates to upstream's protocol, in the log
                built.metadata["protocol"] = {**protocol.as_metadata(), "mode": chosen}
            if settings is not None:
                built.config = _generate_config(settings.config(chosen), built.config, arguments)
                if chosen == "benchmark" and settings.no_max_tokens_with and arguments.get(settings.no_max_tokens_with):
                    built.config = built.config.model_copy(update={"max_tokens": None})
                if chosen == "benchmark" and settings.epochs > 1 and built.epochs is None:
                    built.epochs = settings.epochs
            if built.epochs_reducer is None:
                # inspect's default reducer turns unparsed (None) into 0.0, i.e. "wrong";
                # trustmh_mean keeps it unparsed (see trustmh.scoring.reducers).
                built.epochs_reducer = [trustmh_mean()]
            return built

        registered = task(name=name)(build)
        TASK_FUNCTIONS[name] = registered
        return cast(F, registered)  # the same signature as ``function`` (functools.wraps)

    return decorate


def _stamp(
    name: str, pillar: str, source: str, declared: tuple[str, ...], extra: dict[str, Any] | None
) -> dict[str, Any]:
    extra = dict(extra or {})
    used = tuple(extra.pop("trustmh_datasets", declared))
    if not set(used) <= set(declared):
        raise ValueError(f"task {name} uses datasets {used} it does not declare ({declared})")
    return {**task_metadata(pillar, source, used), **extra}


def _generate_config(base: GenerateConfig, own: GenerateConfig, arguments: dict[str, Any]) -> GenerateConfig:
    """The source's settings, then what the task set itself, then ``max_tokens``/``greedy`` arguments."""
    config = base.merge(own)
    if arguments.get("max_tokens") is not None:
        config = config.merge(GenerateConfig(max_tokens=arguments["max_tokens"]))
    if arguments.get("greedy"):
        config = config.model_copy(update={"temperature": 0.0, "top_p": None})
    return config


def resolve_source(source: str, data_dir: str | None) -> Literal["starter", "benchmark"]:
    if source not in SOURCES:
        raise UserError(f"source must be one of {', '.join(SOURCES)}, not {source!r}")
    if source == "auto":
        return "benchmark" if (data_dir or os.environ.get("TRUSTMH_DATA_DIR")) else "starter"
    return "starter" if source == "starter" else "benchmark"


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
