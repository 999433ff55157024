"""Reliability tasks. See the pillar README for the protocols and accepted formats."""

from __future__ import annotations

from inspect_ai import Task
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import generate

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
from trustmh.tasking import resolve_source, task_metadata, trustmh_task

PILLAR = "reliability"


def _config(max_tokens: int) -> GenerateConfig:
    return GenerateConfig(max_tokens=max_tokens, temperature=0.0)


@trustmh_task(pillar=PILLAR, datasets=("psyeval",), metrics=("accuracy",))
def reliability_usmle_mental(source: str = "auto", data_dir: str | None = None, max_tokens: int = 64) -> Task:
    """Psy-Eval USMLE-Mental: psychiatry exam questions, accuracy of the chosen letter."""
    chosen = resolve_source(source, data_dir)
    return Task(
        dataset=usmle_dataset(chosen, data_dir),
        solver=generate(),
        scorer=mcq_scorer(),
        config=_config(max_tokens),
        metadata=task_metadata(PILLAR, chosen, ("psyeval",)),
    )


@trustmh_task(pillar=PILLAR, datasets=("psyeval",), metrics=("accuracy",))
def reliability_crisis_qa(source: str = "auto", data_dir: str | None = None, max_tokens: int = 64) -> Task:
    """Psy-Eval Crisis Response QA: crisis-response knowledge questions, accuracy."""
    chosen = resolve_source(source, data_dir)
    return Task(
        dataset=crisis_qa_dataset(chosen, data_dir),
        solver=generate(),
        scorer=mcq_scorer(),
        config=_config(max_tokens),
        metadata=task_metadata(PILLAR, chosen, ("psyeval",)),
    )


@trustmh_task(pillar=PILLAR, datasets=("emobench",), metrics=("emotion_accuracy", "cause_accuracy", "joint_accuracy"))
def reliability_emobench_eu(
    source: str = "auto", data_dir: str | None = None, language: str = "en", max_tokens: int = 64
) -> Task:
    """EmoBench EU: which emotion and why; accuracy per question and for both (joint)."""
    chosen = resolve_source(source, data_dir)
    return Task(
        dataset=emobench_dataset(chosen, data_dir, language),
        solver=generate(),
        scorer=emobench_scorer(),
        config=_config(max_tokens),
        metadata=task_metadata(PILLAR, chosen, ("emobench",), language=language),
    )


@trustmh_task(pillar=PILLAR, datasets=("swmh",), metrics=("accuracy", "macro_f1"))
def reliability_swmh(
    source: str = "auto", data_dir: str | None = None, split: str = "test", max_chars: int = 2000, max_tokens: int = 32
) -> Task:
    """SWMH: which mental-health subreddit a post comes from (5 classes); accuracy, macro F1."""
    chosen = resolve_source(source, data_dir)
    return Task(
        dataset=swmh_dataset(chosen, data_dir, split, max_chars),
        solver=generate(),
        scorer=classification_scorer(),
        config=_config(max_tokens),
        metadata=task_metadata(PILLAR, chosen, ("swmh",), split=split),
    )


@trustmh_task(pillar=PILLAR, datasets=("d4",), metrics=("accuracy", "macro_f1"))
def reliability_d4(
    source: str = "auto",
    data_dir: str | None = None,
    split: str = "test",
    target: str = "drisk",
    binary: bool = False,
    max_chars: int = 2000,
    max_tokens: int = 32,
) -> Task:
    """D4: depression severity (or suicide risk) from a diagnosis dialogue; accuracy, macro F1."""
    chosen = resolve_source(source, data_dir)
    return Task(
        dataset=d4_dataset(chosen, data_dir, split, target, binary, max_chars),
        solver=generate(),
        scorer=classification_scorer(),
        config=_config(max_tokens),
        metadata=task_metadata(PILLAR, chosen, ("d4",), split=split, target=target, binary=binary),
    )


@trustmh_task(
    pillar=PILLAR,
    datasets=("trustmh", "esconv"),
    metrics=("empathy", "relevance", "helpfulness", "reply_length"),
    needs_judge=True,
)
def reliability_esconv_support(
    source: str = "auto",
    data_dir: str | None = None,
    corpus: str = "fair",
    max_turns: int = 3,
    max_history: int = 0,
    max_tokens: int = 160,
) -> Task:
    """ESConv: the model writes the supporter's turns; judge-rated empathy, relevance, helpfulness."""
    chosen = resolve_source(source, data_dir)
    datasets = ("trustmh",) if corpus == "fair" else ("esconv",)
    return Task(
        dataset=esconv_dataset(chosen, data_dir, corpus),
        solver=support_turns(
            helper="supporter",
            labels={"seeker": "Seeker: ", "supporter": "Supporter: "},
            system_prompt=ESCONV_SYSTEM,
            max_turns=max_turns,
            max_history=max_history,
        ),
        scorer=esconv_support_scorer(),
        config=_config(max_tokens),
        metadata=task_metadata(PILLAR, chosen, datasets, corpus=corpus, max_turns=max_turns),
    )


@trustmh_task(
    pillar=PILLAR,
    datasets=("cpsycoune",),
    metrics=("comprehensiveness", "professionalism", "authenticity", "safety", "total", "reply_length"),
    needs_judge=True,
)
def reliability_cpsycoune(
    source: str = "auto", data_dir: str | None = None, max_turns: int = 3, max_history: int = 0, max_tokens: int = 200
) -> Task:
    """CPsyCounE: the model writes the counsellor's turns; CPsyCoun's four judge-rated scores."""
    chosen = resolve_source(source, data_dir)
    return Task(
        dataset=cpsycoune_dataset(chosen, data_dir),
        solver=support_turns(
            helper="counselor",
            labels={"client": "求助者：", "counselor": "支持者："},
            system_prompt=CPSYCOUN_SYSTEM,
            max_turns=max_turns,
            max_history=max_history,
        ),
        scorer=cpsycoun_scorer(),
        config=_config(max_tokens),
        metadata=task_metadata(PILLAR, chosen, ("cpsycoune",), max_turns=max_turns),
    )
