"""Robustness tasks: a task's items clean and under perturbations, scored in the same run.

:func:`robustness_task` works on any text task given its dataset, scorer and score field;
:func:`robustness_of` declares the registered task of a base task in one call, as
``robustness_crisis_*`` do for the Crisis pillar. Each base sample becomes one sample
per variant (clean + every kind x intensity), with ids ``<id>@clean`` / ``<id>@<kind>-<i>``.
"""

from __future__ import annotations

import inspect as pyinspect
from collections.abc import Callable, Sequence
from typing import Any

from inspect_ai import Task
from inspect_ai.dataset import Dataset, MemoryDataset, Sample
from inspect_ai.model import GenerateConfig
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import Solver, TaskState, generate

from trustmh.core.errors import UserError
from trustmh.pillars.crisis.dataset import classification_dataset, cssrs_dataset
from trustmh.pillars.crisis.scorers import crisis_label_scorer, cssrs_scorer
from trustmh.pillars.crisis.tasks import LABEL_GENERATION
from trustmh.pillars.robustness.metrics import robustness_metrics
from trustmh.pillars.robustness.perturb import KINDS, MAX_INTENSITY
from trustmh.pillars.robustness.solvers import CLEAN, INTENSITY_KEY, KIND_KEY, perturb_input
from trustmh.tasking.declare import Generation, trustmh_task

PILLAR = "robustness"
# Quick by default (every item runs once per variant plus clean): one word-level kind at a middle intensity.
DEFAULT_KINDS = "typos"
DEFAULT_INTENSITIES = "3"
METRICS = ("score[perturbation=*]", "relative_drop[perturbation=*]")


def parse_variants(kinds: str | Sequence[str], intensities: str | int | Sequence[int]) -> list[tuple[str, int]]:
    """``[(kind, intensity)]`` from comma-separated strings (CLI ``-T kinds=typos,case_flip``) or lists."""
    kind_list = [k.strip() for k in kinds.split(",")] if isinstance(kinds, str) else list(kinds)
    if kind_list == ["all"]:
        kind_list = list(KINDS)
    unknown = [k for k in kind_list if k not in KINDS]
    if unknown:
        raise UserError(f"unknown perturbation kind {unknown[0]!r}; expected some of {', '.join(KINDS)} (or 'all')")
    if isinstance(intensities, int):
        levels = [intensities]
    elif isinstance(intensities, str):
        try:
            levels = [int(i) for i in intensities.split(",") if i.strip()]
        except ValueError:
            raise UserError(
                f"intensities must be comma-separated integers 1-{MAX_INTENSITY}, not {intensities!r}"
            ) from None
    else:
        levels = [int(i) for i in intensities]
    bad = [i for i in levels if not 1 <= i <= MAX_INTENSITY]
    if bad or not levels or not kind_list:
        raise UserError(
            f"intensities must be integers from 1 to {MAX_INTENSITY} and kinds non-empty (got {intensities!r})"
        )
    return [(k, i) for k in kind_list for i in levels]


def variant_name(kind: str, intensity: int) -> str:
    return CLEAN if kind == CLEAN else f"{kind}@{intensity}"


def expand_dataset(dataset: Dataset, variants: Sequence[tuple[str, int]]) -> MemoryDataset:
    """One sample per (base sample, variant); the clean run comes first."""
    samples: list[Sample] = []
    for sample in dataset:
        for kind, intensity in [(CLEAN, 0), *variants]:
            metadata: dict[str, Any] = dict(sample.metadata or {})
            metadata.update(
                {
                    "base_id": sample.id,
                    "perturbation": variant_name(kind, intensity),
                    KIND_KEY: kind,
                    INTENSITY_KEY: intensity,
                }
            )
            suffix = CLEAN if kind == CLEAN else f"{kind}-{intensity}"
            samples.append(sample.model_copy(update={"id": f"{sample.id}@{suffix}", "metadata": metadata}))
    return MemoryDataset(samples, name=f"{dataset.name}_robustness")


@scorer(metrics=[])
def robust_scorer(inner: Scorer, field: str) -> Scorer:
    """The base task's scorer, reported through :func:`robustness_metrics` on ``field``."""

    async def score(state: TaskState, target: Target) -> Score:
        result = await inner(state, target)
        if result is None:
            raise RuntimeError("the base scorer returned no score")
        if isinstance(result.value, dict) and field not in result.value:
            # a wrong field would report every sample as "not applicable" (n = 0, unparsed 0)
            raise ValueError(f"score field {field!r} is not in the base scorer's value ({', '.join(result.value)})")
        return result

    return score


def robustness_task(
    *,
    dataset: Dataset,
    scorer: Scorer,
    score_field: str,
    metadata: dict[str, Any],
    config: GenerateConfig | None = None,
    kinds: str | Sequence[str] = DEFAULT_KINDS,
    intensities: str | int | Sequence[int] = DEFAULT_INTENSITIES,
    seed: int = 0,
    solver: Solver | None = None,
    unparsed_as: float | None = 0.0,
) -> Task:
    """Any text task made into a robustness task (see module docstring).

    ``unparsed_as``: the value of an unparsed answer in the ``_strict`` metrics (0.0: a 0/1
    correctness field, counted wrong, as the upstream benchmarks do); ``None``: no strict variant.
    """
    variants = parse_variants(kinds, intensities)
    return Task(
        dataset=expand_dataset(dataset, variants),
        solver=[perturb_input(seed=seed), solver or generate()],
        scorer=robust_scorer(scorer, score_field),
        metrics=[robustness_metrics(score_field, unparsed_as)],
        config=config or GenerateConfig(),
        metadata={
            **metadata,
            "perturbations": [variant_name(k, i) for k, i in variants],
            "perturbation_seed": seed,
            "score_field": score_field,
        },
    )


def robustness_of(
    name: str,
    *,
    base_task: str,
    datasets: tuple[str, ...],
    generation: Generation,
    dataset: Callable[..., Dataset],
    scorer: Callable[[], Scorer],
    score_field: str,
    description: str,
    dataset_options: dict[str, Any] | None = None,
) -> Callable[..., Task]:
    """The registered robustness task ``name`` of the task ``base_task``, declared in one call.

    ``dataset(source, data_dir, **options)`` and ``scorer()`` are the base task's; ``datasets`` and
    ``generation`` its ``@trustmh_task`` declaration. The task takes ``source``, ``data_dir``, the
    perturbation's ``kinds``, ``intensities`` and ``seed``, and ``dataset_options`` (name -> default)
    as keyword parameters passed on to ``dataset`` (e.g. crisis ``labels``).
    """
    options = dataset_options or {}

    def build(
        source: str = "auto",
        data_dir: str | None = None,
        kinds: str = DEFAULT_KINDS,
        intensities: str = DEFAULT_INTENSITIES,
        seed: int = 0,
        **chosen: Any,
    ) -> Task:
        return robustness_task(
            dataset=dataset(source, data_dir, **chosen),
            scorer=scorer(),
            score_field=score_field,
            metadata={"base_task": base_task},
            kinds=kinds,
            intensities=intensities,
            seed=seed,
        )

    # inspect and trustmh_task read the parameters from the signature: show the options as real
    # keyword parameters (``-T labels=...``) instead of ``**chosen``.
    fixed = [p for p in pyinspect.signature(build).parameters.values() if p.kind is not p.VAR_KEYWORD]
    extra = [
        pyinspect.Parameter(k, pyinspect.Parameter.KEYWORD_ONLY, default=v, annotation=type(v))
        for k, v in options.items()
    ]
    build.__signature__ = pyinspect.Signature(fixed + extra, return_annotation=Task)  # type: ignore[attr-defined]
    build.__name__ = build.__qualname__ = name
    build.__doc__ = description
    return trustmh_task(pillar=PILLAR, datasets=datasets, metrics=METRICS, generation=generation)(build)


robustness_crisis_classification = robustness_of(
    "robustness_crisis_classification",
    base_task="crisis_classification",
    datasets=("llms_mh_crisis",),
    generation=LABEL_GENERATION,
    dataset=classification_dataset,
    scorer=crisis_label_scorer,
    score_field="correct",
    description="Crisis 7-class accuracy, clean vs perturbed user messages (relative drop).",
    dataset_options={"labels": "human"},
)

robustness_crisis_cssrs = robustness_of(
    "robustness_crisis_cssrs",
    base_task="crisis_cssrs",
    datasets=("cssrs",),
    generation=LABEL_GENERATION,
    dataset=cssrs_dataset,
    scorer=cssrs_scorer,
    score_field="correct",
    description="C-SSRS level accuracy, clean vs perturbed posts (relative drop).",
)
