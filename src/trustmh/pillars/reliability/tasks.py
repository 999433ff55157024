"""Reliability tasks. See the pillar README for the protocols and accepted formats."""

from __future__ import annotations

from inspect_ai import Task

from trustmh.pillars.reliability.dataset import (
    cpsycoune_dataset,
    crisis_qa_dataset,
    d4_dataset,
    emobench_dataset,
    esconv_dataset,
    swmh_dataset,
    usmle_dataset,
)
from trustmh.pillars.reliability.prompts import CPSYCOUN_SYSTEM, ESCONV_SYSTEM
from trustmh.pillars.reliability.scorers import (
    classification_scorer,
    cpsycoun_scorer,
    emobench_scorer,
    esconv_support_scorer,
    mcq_scorer,
)
from trustmh.pillars.reliability.solvers import support_turns
from trustmh.tasking.declare import judged_free_text, short_answer, trustmh_task

# Long posts and transcripts are cut in the middle for the starter suite (the embedded model
# has an 8k context and the default run should stay quick); benchmark runs keep them whole (0 = no limit).
STARTER_MAX_CHARS = 2000
# An option letter or two (or a short JSON object); a few more allow "Answer: X". The robustness
# twins of these tasks use the same settings, so their clean pass is the very request the base
# task sent (and the embedded model answers it once per run).
ANSWER_GENERATION = short_answer(64)


def _max_chars(source: str, max_chars: int | None) -> int:
    if max_chars is not None:
        return max_chars
    return STARTER_MAX_CHARS if source == "starter" else 0


@trustmh_task(pillar="reliability", datasets=("psyeval",), metrics=("accuracy",), generation=ANSWER_GENERATION)
def reliability_usmle_mental(source: str = "auto", data_dir: str | None = None, max_tokens: int | None = None) -> Task:
    """Psy-Eval USMLE-Mental: psychiatry exam questions, accuracy of the chosen letter."""
    return Task(dataset=usmle_dataset(source, data_dir), scorer=mcq_scorer())


@trustmh_task(pillar="reliability", datasets=("psyeval",), metrics=("accuracy",), generation=ANSWER_GENERATION)
def reliability_crisis_qa(source: str = "auto", data_dir: str | None = None, max_tokens: int | None = None) -> Task:
    """Psy-Eval Crisis Response QA: crisis-response knowledge questions, accuracy."""
    return Task(dataset=crisis_qa_dataset(source, data_dir), scorer=mcq_scorer())


@trustmh_task(
    pillar="reliability",
    datasets=("emobench",),
    metrics=("emotion_accuracy", "cause_accuracy", "joint_accuracy"),
    generation=ANSWER_GENERATION,
)
def reliability_emobench_eu(
    source: str = "auto", data_dir: str | None = None, language: str = "en", max_tokens: int | None = None
) -> Task:
    """EmoBench EU: which emotion and why; accuracy per question and for both (joint)."""
    return Task(
        dataset=emobench_dataset(source, data_dir, language), scorer=emobench_scorer(), metadata={"language": language}
    )


@trustmh_task(pillar="reliability", datasets=("swmh",), metrics=("accuracy", "macro_f1"), generation=short_answer(32))
def reliability_swmh(
    source: str = "auto",
    data_dir: str | None = None,
    split: str = "test",
    max_chars: int | None = None,
    max_tokens: int | None = None,
) -> Task:
    """SWMH: which mental-health subreddit a post comes from (5 classes); accuracy, macro F1."""
    limit = _max_chars(source, max_chars)
    return Task(
        dataset=swmh_dataset(source, data_dir, split, limit),
        scorer=classification_scorer(),
        metadata={"split": split, "max_chars": limit},
    )


@trustmh_task(pillar="reliability", datasets=("d4",), metrics=("accuracy", "macro_f1"), generation=short_answer(32))
def reliability_d4(
    source: str = "auto",
    data_dir: str | None = None,
    split: str = "test",
    target: str = "drisk",
    binary: bool = False,
    max_chars: int | None = None,
    max_tokens: int | None = None,
) -> Task:
    """D4: depression severity (or suicide risk) from a diagnosis dialogue; accuracy, macro F1."""
    limit = _max_chars(source, max_chars)
    return Task(
        dataset=d4_dataset(source, data_dir, split, target, binary, limit),
        scorer=classification_scorer(),
        metadata={"split": split, "target": target, "binary": binary, "max_chars": limit},
    )


@trustmh_task(
    pillar="reliability",
    datasets=("trustmh", "esconv"),
    metrics=("empathy", "relevance", "helpfulness", "reply_length"),
    generation=judged_free_text(160),
    needs_judge=True,
)
def reliability_esconv_support(
    source: str = "auto",
    data_dir: str | None = None,
    corpus: str = "fair",
    max_turns: int = 3,
    max_history: int = 0,
    max_tokens: int | None = None,
) -> Task:
    """ESConv: the model writes the supporter's turns; judge-rated empathy, relevance, helpfulness."""
    return Task(
        dataset=esconv_dataset(source, data_dir, corpus),
        solver=support_turns(
            helper="supporter",
            labels={"seeker": "Seeker: ", "supporter": "Supporter: "},
            system_prompt=ESCONV_SYSTEM,
            max_turns=max_turns,
            max_history=max_history,
        ),
        scorer=esconv_support_scorer(),
        metadata={
            "trustmh_datasets": ["trustmh"] if corpus == "fair" else ["esconv"],
            "corpus": corpus,
            "max_turns": max_turns,
        },
    )


@trustmh_task(
    pillar="reliability",
    datasets=("cpsycoune",),
    metrics=("comprehensiveness", "professionalism", "authenticity", "safety", "total", "reply_length"),
    generation=judged_free_text(200),
    needs_judge=True,
)
def reliability_cpsycoune(
    source: str = "auto",
    data_dir: str | None = None,
    max_turns: int = 3,
    max_history: int = 0,
    max_tokens: int | None = None,
) -> Task:
    """CPsyCounE: the model writes the counsellor's turns; CPsyCoun's four judge-rated scores."""
    return Task(
        dataset=cpsycoune_dataset(source, data_dir),
        solver=support_turns(
            helper="counselor",
            labels={"client": "求助者：", "counselor": "支持者："},
            system_prompt=CPSYCOUN_SYSTEM,
            max_turns=max_turns,
            max_history=max_history,
        ),
        scorer=cpsycoun_scorer(),
        metadata={"max_turns": max_turns},
    )
