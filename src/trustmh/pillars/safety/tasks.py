"""Safety tasks: refusal of harmful mental-health requests under jailbreak attacks."""

from __future__ import annotations

from inspect_ai import Task

from trustmh.pillars.safety.dataset import (
    antitoxic_dataset,
    generated_dataset,
    harmful_intents,
    jailbreakmh_dataset,
    overrefusal_dataset,
    parse_methods,
)
from trustmh.pillars.safety.scorers import antitoxic_scorer, jailbreak_scorer, overrefusal_scorer
from trustmh.tasking.declare import judged_free_text, trustmh_task

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

OVERREFUSAL_METRICS = (
    "over_refusal_rate_judge",
    "over_refusal_rate_judge[category=*]",
    "over_refusal_rate_keyword",
    "over_refusal_rate_keyword[category=*]",
    "answer_rate_judge",
    "answer_rate_keyword",
    "full_refusal_rate_judge",
    "partial_refusal_rate_judge",
    "detector_judge_agreement",
    "detector_judge_kappa",
)
# The over-refusal items are our own benchmark (no upstream one exists): its name in logs.
OVERREFUSAL_BENCHMARK = "trustmh_overrefusal"
# The default (starter) run takes this many items per category, to stay within its time budget.
OVERREFUSAL_STARTER_PER_CATEGORY = 1
OVERREFUSAL_GENERATION = judged_free_text(64, upstream="none: our own benchmark", why="ours")


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


@trustmh_task(
    pillar="safety", datasets=(OVERREFUSAL_BENCHMARK,), metrics=OVERREFUSAL_METRICS, generation=OVERREFUSAL_GENERATION
)
def safety_overrefusal(
    source: str = "auto",
    data_dir: str | None = None,
    per_category: int | None = None,
    max_tokens: int | None = None,
) -> Task:
    """Over-refusal: share of 160 benign mental-health requests (our own items) the model refuses.

    The items ship with trustmh and are this task's whole benchmark (``source="benchmark"``);
    the starter run takes ``per_category`` items of each category (default 1) to stay short.
    ``data_dir`` is accepted like every task's but not read: there is no upstream file.
    """
    if per_category is None and source == "starter":
        per_category = OVERREFUSAL_STARTER_PER_CATEGORY
    return Task(
        dataset=overrefusal_dataset(per_category),
        scorer=overrefusal_scorer(),
        metadata={
            "benchmark": f"{OVERREFUSAL_BENCHMARK}: trustmh's own benign requests, not an upstream benchmark",
            "per_category": per_category,
        },
    )


ANTITOXIC_METRICS = (
    "toxicity_mean",
    "toxicity_mean[kind=*]",
    "toxicity_mean[category=*]",
    "toxic_rate",
    "toxic_rate[kind=*]",
    "toxic_rate[category=*]",
    "antitoxic_rate",
    "judge_unparsed_rate",
)
# Judged only, so a default (judge-less) run scores nothing here: its starter slice is kept to a
# few items. The jailbreak ones are the first of safety_jailbreakmh's, answered once for both.
ANTITOXIC_STARTER_JAILBREAKS = 2
ANTITOXIC_STARTER_PER_CATEGORY = 1
ANTITOXIC_GENERATION = judged_free_text(64)


@trustmh_task(
    pillar="safety", datasets=("trustmh",), metrics=ANTITOXIC_METRICS, generation=ANTITOXIC_GENERATION, needs_judge=True
)
def safety_antitoxic(
    source: str = "auto",
    data_dir: str | None = None,
    per_category: int | None = None,
    jailbreaks: int | None = None,
    max_tokens: int | None = None,
) -> Task:
    """Antitoxic: judged toxicity of answers to jailbreak prompts and to 48 hostile user messages.

    Jailbreak prompts are ``safety_jailbreakmh``'s (JailbreakMH in benchmark mode); the hostile
    messages are our own. The starter run takes ``jailbreaks`` = 2 prompts and ``per_category`` = 1
    hostile message per category; benchmark runs take all unless these are given.
    """
    if source == "starter":
        jailbreaks = ANTITOXIC_STARTER_JAILBREAKS if jailbreaks is None else jailbreaks
        per_category = ANTITOXIC_STARTER_PER_CATEGORY if per_category is None else per_category
    return Task(
        dataset=antitoxic_dataset(source, data_dir, per_category, jailbreaks),
        scorer=antitoxic_scorer(),
        metadata={"per_category": per_category, "jailbreaks": jailbreaks},
    )
