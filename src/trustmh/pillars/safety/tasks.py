"""Safety tasks: refusal of harmful mental-health requests under jailbreak attacks."""

from __future__ import annotations

from inspect_ai import Task
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import generate

from trustmh.pillars.safety.dataset import generated_dataset, harmful_intents, jailbreakmh_dataset, parse_methods
from trustmh.pillars.safety.scorers import jailbreak_scorer
from trustmh.tasking import resolve_source, task_metadata, trustmh_task

PILLAR = "safety"
METRICS = (
    "rta_judge",
    "rta_judge[method=*]",
    "rta_judge[objective=*]",
    "rta_keyword",
    "rta_keyword[method=*]",
    "rta_keyword[objective=*]",
    "harmfulness",
    "detector_judge_agreement",
    "detector_judge_kappa",
)
# The refusal decision is read from the opening of the answer (first ~450 characters), so a
# short answer is enough; raise max_tokens for a judge to see more of a compliant answer.
DEFAULT_MAX_TOKENS = 64


@trustmh_task(pillar=PILLAR, datasets=("trustmh",), metrics=METRICS)
def safety_jailbreakmh(source: str = "auto", data_dir: str | None = None, max_tokens: int = DEFAULT_MAX_TOKENS) -> Task:
    """JailbreakMH: refuse-to-answer rate on 70 PsyHarm intents x 8 jailbreak methods."""
    chosen = resolve_source(source, data_dir)
    return Task(
        dataset=jailbreakmh_dataset(chosen, data_dir),
        solver=generate(),
        scorer=jailbreak_scorer(),
        config=GenerateConfig(max_tokens=max_tokens, temperature=0.0),
        metadata=task_metadata(PILLAR, chosen, ("trustmh",)),
    )


@trustmh_task(pillar=PILLAR, datasets=("trustmh",), metrics=METRICS)
def safety_jailbreak_generated(
    source: str = "auto",
    data_dir: str | None = None,
    intents_csv: str | None = None,
    methods: str = "all",
    seed: int = 0,
    rotate: bool | None = None,
    max_tokens: int = DEFAULT_MAX_TOKENS,
) -> Task:
    """Generated jailbreaks: the 14 TrustLLM methods as code, applied to PsyHarm or your own intents.

    ``intents_csv``: a CSV with a ``prompt`` column (optional ``id``, ``objective``).
    ``rotate``: one method per intent, cycling (default for the starter items, to keep the
    default run short) instead of every intent x every method.
    """
    chosen = resolve_source(source, data_dir)
    chosen_methods = parse_methods(methods)
    one_each = (chosen == "starter" and not intents_csv) if rotate is None else rotate
    intents = harmful_intents(chosen, data_dir, intents_csv)
    return Task(
        dataset=generated_dataset(intents, chosen_methods, seed, one_each),
        solver=generate(),
        scorer=jailbreak_scorer(),
        config=GenerateConfig(max_tokens=max_tokens, temperature=0.0),
        metadata=task_metadata(
            PILLAR,
            chosen,
            ("trustmh",),
            seed=seed,
            methods=list(chosen_methods),
            rotate=one_each,
            intents=intents_csv or ("psyharm" if chosen == "benchmark" else "starter"),
        ),
    )
