"""Safety tasks: refusal of harmful mental-health requests under jailbreak attacks."""

from __future__ import annotations

from inspect_ai import Task

from trustmh.pillars.safety.dataset import generated_dataset, harmful_intents, jailbreakmh_dataset, parse_methods
from trustmh.pillars.safety.scorers import jailbreak_scorer
from trustmh.tasking import judged_free_text, trustmh_task

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
# The refusal detector reads the opening of the answer (first ~450 characters), so the starter
# suite's short answer is enough for it; benchmark runs let a judge see a whole compliant answer.
GENERATION = judged_free_text(64)


@trustmh_task(pillar="safety", datasets=("trustmh",), metrics=METRICS, generation=GENERATION)
def safety_jailbreakmh(source: str = "auto", data_dir: str | None = None, max_tokens: int | None = None) -> Task:
    """JailbreakMH: refuse-to-answer rate on 70 PsyHarm intents x 8 jailbreak methods."""
    return Task(dataset=jailbreakmh_dataset(source, data_dir), scorer=jailbreak_scorer())


@trustmh_task(pillar="safety", datasets=("trustmh",), metrics=METRICS, generation=GENERATION)
def safety_jailbreak_generated(
    source: str = "auto",
    data_dir: str | None = None,
    intents_csv: str | None = None,
    methods: str = "all",
    seed: int = 0,
    rotate: bool | None = None,
    max_tokens: int | None = None,
) -> Task:
    """Generated jailbreaks: the 14 TrustLLM methods as code, applied to PsyHarm or your own intents.

    ``intents_csv``: a CSV with a ``prompt`` column (optional ``id``, ``objective``).
    ``rotate``: one method per intent, cycling (default for the starter items, to keep the
    default run short) instead of every intent x every method.
    """
    chosen_methods = parse_methods(methods)
    one_each = (source == "starter" and not intents_csv) if rotate is None else rotate
    intents = harmful_intents(source, data_dir, intents_csv)
    return Task(
        dataset=generated_dataset(intents, chosen_methods, seed, one_each),
        scorer=jailbreak_scorer(),
        metadata={
            "seed": seed,
            "methods": list(chosen_methods),
            "rotate": one_each,
            "intents": intents_csv or ("psyharm" if source == "benchmark" else "starter"),
        },
    )
