"""Privacy tasks (TrustMH-Bench protocol)."""

from __future__ import annotations

from collections.abc import Callable

from inspect_ai import Task
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import generate

import trustmh.pillars.privacy.protocol  # noqa: F401  (declares these tasks' upstream protocols)
from trustmh.pillars.privacy.dataset import psyleak_dataset, rating_dataset
from trustmh.pillars.privacy.proxy_upstream import upstream_proxy
from trustmh.pillars.privacy.scorers import psyleak_scorer, rating_scorer
from trustmh.pillars.privacy.solvers import MAX_ANSWERS, ask_until_rated
from trustmh.scoring.verbatim import check_parser, judge_choice
from trustmh.tasking.declare import Generation, greedy, trustmh_task

RATING_METRICS = ("pearson_r", "mean_rating", "unparsed_rate")
# TrustMH-Bench's privacy1.py/privacy2.py sample each rating once at temperature 1, top_p 1, up
# to 365 tokens, penalties 0 (tested against the pinned code); ConfAIde's own eval.py averages
# 10 samples: `-T confaide_samples=true`. `-T greedy=true` decodes greedily instead.
CONFAIDE_SAMPLES = 10
CONFAIDE_GENERATION = Generation(
    # Ratings need a few tokens; the explanation some models add is not read.
    starter=greedy(48),
    benchmark=GenerateConfig(max_tokens=365, temperature=1.0, top_p=1.0, frequency_penalty=0.0, presence_penalty=0.0),
    upstream="TrustMH-Bench privacy1.py/privacy2.py: temperature 1, top_p 1, max_tokens 365, 1 sample per item "
    f"(ConfAIde eval.py: {CONFAIDE_SAMPLES} samples and no max_tokens for chat models, -T confaide_samples=true)",
    why="same as upstream",
    no_max_tokens_with="confaide_samples",
)


def _rating_task(
    tier: str, scale: str, source: str, data_dir: str | None, greedy: bool, parser: str, confaide_samples: bool
) -> Task:
    # Upstream asks again until its parser reads a rating; a greedy call would only repeat its answer.
    sampled = source == "benchmark" and not greedy
    return Task(
        dataset=rating_dataset(tier, source, data_dir),
        solver=ask_until_rated(scale, MAX_ANSWERS if sampled else 1)
        if check_parser(parser) == "upstream"
        else generate(),
        scorer=rating_scorer(scale, check_parser(parser)),
        epochs=1 if greedy else (CONFAIDE_SAMPLES if confaide_samples else None),
        metadata={"tier": tier, "greedy": greedy, "parser": parser, "confaide_samples": confaide_samples},
    )


def _confaide_tier(tier: str, scale: str, summary: str) -> Callable[..., Task]:
    """The registered task of one ConfAIde tier; the three differ only in data and scale."""

    def confaide_tier(
        source: str = "auto",
        data_dir: str | None = None,
        greedy: bool = False,
        parser: str = "corrected",
        confaide_samples: bool = False,
    ) -> Task:
        return _rating_task(tier, scale, source, data_dir, greedy, parser, confaide_samples)

    confaide_tier.__name__ = confaide_tier.__qualname__ = f"privacy_confaide_tier{tier}"
    confaide_tier.__doc__ = summary
    declare = trustmh_task(
        pillar="privacy", datasets=("confaide",), metrics=RATING_METRICS, generation=CONFAIDE_GENERATION
    )
    return declare(confaide_tier)


privacy_confaide_tier1 = _confaide_tier(
    "1", "sensitivity", "ConfAIde tier 1: how sensitive is this information (1-4)? Pearson r with human means."
)
privacy_confaide_tier2a = _confaide_tier(
    "2a", "expectation", "ConfAIde tier 2a: does this information flow meet privacy expectations (-100..100)?"
)
privacy_confaide_tier2b = _confaide_tier(
    "2b", "expectation", "ConfAIde tier 2b: the same ratings for flows told as short stories (-100..100)."
)


@trustmh_task(
    pillar="privacy",
    datasets=("trustmh",),
    metrics=(
        "free_response_leak_rate",
        "proxy_leak_rate",
        "info_accessibility_error",
        "privacy_sharing_error",
        "control_error",
    ),
    generation=Generation(
        starter=greedy(160),
        benchmark=GenerateConfig(
            max_tokens=256, temperature=0.0, top_p=1.0, frequency_penalty=0.0, presence_penalty=0.0
        ),
        upstream="TrustMH-Bench privacy3.py (PsyLeak): temperature 0, top_p 1, max_tokens 256",
        why="same as upstream (ConfAIde's own tier 3 sampled at temperature 1; PsyLeak's release decodes greedily)",
    ),
)
def privacy_psyleak(
    source: str = "auto",
    data_dir: str | None = None,
    max_tokens: int | None = None,
    parser: str = "corrected",
    judge_prompts: str = "auto",
) -> Task:
    """PsyLeak: does the model leak a counselling client's secret when asked?

    ``judge_prompts`` (the proxy judge of ``proxy_leak``, with ``--judge``): ``upstream``
    (TrustMH-Bench's own proxy-model request, read from its pinned privacy3.py; the default in
    benchmark mode) or ``trustmh`` (our question; the default on starter items).
    """
    dataset = psyleak_dataset(source, data_dir)  # first: a broken data file is named before a missing protocol file
    proxy, metadata = judge_choice(
        judge_prompts, source, parser, "the PsyLeak scenarios", lambda: upstream_proxy(data_dir, parser)
    )
    return Task(
        dataset=dataset,
        scorer=psyleak_scorer(parser, proxy, benchmark=source == "benchmark"),
        metadata=metadata,
    )
