"""Robustness tasks with replayed outputs: per-variant scores and paired relative drop."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import GenerateConfig
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from tests.conftest import require_shared_data
from tests.fakes import metrics_of, replay_eval, write_replay
from trustmh.core.errors import UserError
from trustmh.pillars.crisis.prompts import CLASS_DEFINITIONS
from trustmh.pillars.robustness.perturb import KINDS
from trustmh.pillars.robustness.tasks import (
    parse_variants,
    robustness_crisis_classification,
    robustness_crisis_cssrs,
    robustness_task,
)


def test_crisis_classification_clean_vs_perturbed(tmp_path: Path) -> None:
    task = robustness_crisis_classification(source="starter", kinds="typos,prepend_distractor", intensities="2")
    samples = list(task.dataset)
    assert len(samples) == 21 * 3
    outputs: dict[str, str | None] = {}
    for sample in samples:
        gold = str(sample.target)
        base = str(sample.metadata["base_id"])
        variant = sample.metadata["perturbation"]
        if variant == "typos@2" and base.startswith("s-si"):
            outputs[str(sample.id)] = "no_crisis"  # 3 of 21 items flip under typos
        elif variant == "prepend_distractor@2" and base == "s-nc-1":
            outputs[str(sample.id)] = "unclear"  # unparsed: excluded from the pair
        else:
            outputs[str(sample.id)] = gold
    log = replay_eval(task, write_replay(tmp_path / "r.jsonl", outputs), tmp_path)
    metrics = metrics_of(log)
    assert metrics["score[perturbation=clean]"] == 1.0 and metrics["score[perturbation=clean]_n"] == 21
    assert metrics["score[perturbation=typos@2]"] == pytest.approx(18 / 21)
    assert metrics["relative_drop[perturbation=typos@2]"] == pytest.approx(3 / 21)
    assert (
        metrics["relative_drop[perturbation=typos@2]_ci_low"]
        <= 3 / 21
        <= metrics["relative_drop[perturbation=typos@2]_ci_high"]
    )
    assert metrics["score[perturbation=prepend_distractor@2]_unparsed"] == 1
    assert (
        metrics["relative_drop[perturbation=prepend_distractor@2]"] == 0
        and metrics["relative_drop[perturbation=prepend_distractor@2]_n"] == 20
    )
    assert metrics["relative_drop[perturbation=prepend_distractor@2]_unparsed"] == 1
    # strict: the unparsed answer counted wrong, so the stop-answering shows as a drop
    assert metrics["score[perturbation=prepend_distractor@2]_strict"] == pytest.approx(20 / 21)
    assert metrics["relative_drop[perturbation=prepend_distractor@2]_strict"] == pytest.approx(1 / 21)
    assert metrics["relative_drop[perturbation=prepend_distractor@2]_strict_n"] == 21
    # the model read a perturbed message, the instructions and label list intact
    perturbed = next(s for s in log.samples or [] if s.id == "s-ax-1@typos-2")
    record = perturbed.metadata["perturbation"]
    assert record["editable"] == "span" and record["changed"]
    assert all(f"- {label}: {text}" in record["perturbed_input"] for label, text in CLASS_DEFINITIONS.items())
    assert perturbed.input != record["perturbed_input"]  # sample input stays the clean one
    assert perturbed.store["perturbation"]["kind"] == "typos"


@scorer(metrics=[])
def exact_letter() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        answer = state.output.completion.strip()
        return Score(value={"correct": None if not answer else float(answer == target.text)})

    return score


MCQ = "A client reports low mood for three weeks. What is the most likely diagnosis?\nA. Major depressive episode\nB. Panic disorder\nAnswer:"


def mcq_robustness_task(kind: str, intensity: int) -> Task:
    """One MCQ item (gold A) under one perturbation, through the generic factory."""
    dataset = MemoryDataset([Sample(id="q1", input=MCQ, target="A")], name="mcq")
    return robustness_task(
        dataset=dataset,
        scorer=exact_letter(),
        score_field="correct",
        config=GenerateConfig(max_tokens=4),
        metadata={},
        kinds=[kind],
        intensities=[intensity],
    )


def test_generic_factory_protects_mcq_options(tmp_path: Path) -> None:
    task = mcq_robustness_task("delete_char", 5)
    outputs = {"q1@clean": "A", "q1@delete_char-5": "B"}
    log = replay_eval(task, write_replay(tmp_path / "r.jsonl", outputs), tmp_path)
    metrics = metrics_of(log)
    assert metrics["relative_drop[perturbation=delete_char@5]"] == 1.0
    record = next(s for s in log.samples or [] if s.id == "q1@delete_char-5").metadata["perturbation"]
    assert record["editable"] == "default"
    lines = record["perturbed_input"].splitlines()
    assert lines[1].startswith("A. ") and lines[2].startswith("B. ") and lines[3] == "Answer:"


def test_variant_options() -> None:
    assert parse_variants("typos, case_flip", "1,5") == [("typos", 1), ("typos", 5), ("case_flip", 1), ("case_flip", 5)]
    assert len(parse_variants("all", 2)) == len(KINDS) == 13
    with pytest.raises(UserError, match="unknown perturbation kind 'shout'"):
        parse_variants("shout", "1")
    with pytest.raises(UserError, match="from 1 to 5"):
        parse_variants("typos", "0")


def test_cssrs_robustness_builds_on_real_data(tmp_path: Path) -> None:
    data = require_shared_data()
    task = robustness_crisis_cssrs(data_dir=str(data))
    assert len(task.dataset) == 500 * 2  # clean + typos@3 by default
    first = list(task.dataset)[:3]
    outputs = {str(s.id): str(s.target) for s in first}
    metrics = metrics_of(replay_eval(task, write_replay(tmp_path / "r.jsonl", outputs), tmp_path, limit=3))
    assert metrics["score[perturbation=clean]"] == 1.0 and metrics["relative_drop[perturbation=typos@3]"] == 0.0


def test_emobench_robustness_counts_unparsed_answers(tmp_path: Path) -> None:
    """Issue 13: unparseable EmoBench answers were reported as n = 0, unparsed 0 (wrong score field)."""
    from trustmh.pillars.robustness.reliability_tasks import robustness_emobench_eu

    task = robustness_emobench_eu(source="starter", kinds="case_flip", intensities="1")
    samples = list(task.dataset)
    outputs: dict[str, str | None] = {}
    for index, sample in enumerate(samples):
        meta = sample.metadata or {}
        if index % 2:  # every other answer names neither option
            outputs[str(sample.id)] = "I am not sure."
        else:
            outputs[str(sample.id)] = f'{{"emotion": "{meta["emotion_answer"]}", "cause": "{meta["cause_answer"]}"}}'
    metrics = metrics_of(replay_eval(task, write_replay(tmp_path / "r.jsonl", outputs), tmp_path))
    unparsed = sum(metrics[f"score[perturbation={variant}]_unparsed"] for variant in ("clean", "case_flip@1"))
    parsed = sum(metrics[f"score[perturbation={variant}]_n"] for variant in ("clean", "case_flip@1"))
    assert unparsed == len(samples) // 2 and parsed == len(samples) - len(samples) // 2
    assert metrics["score[perturbation=clean]"] == 1.0


def test_stacked_variant_logs_its_stages_and_keeps_options(tmp_path: Path) -> None:
    task = mcq_robustness_task("stacked", 3)
    log = replay_eval(task, write_replay(tmp_path / "r.jsonl", {"q1@clean": "A", "q1@stacked-3": "A"}), tmp_path)
    record = next(s for s in log.samples or [] if s.id == "q1@stacked-3").metadata["perturbation"]
    assert record["stages"] == ["character", "word", "sentence"] and record["changed"]
    lines = record["perturbed_input"].splitlines()
    assert lines[-3].startswith("A. ") and lines[-2].startswith("B. ") and lines[-1] == "Answer:"


TWINS = [
    ("robustness_crisis_classification", "crisis_classification"),
    ("robustness_crisis_cssrs", "crisis_cssrs"),
    ("robustness_usmle_mental", "reliability_usmle_mental"),
    ("robustness_emobench_eu", "reliability_emobench_eu"),
]


@pytest.mark.parametrize("source", ["starter", "benchmark"])
@pytest.mark.parametrize(("robust", "base"), TWINS)
def test_the_clean_pass_is_the_base_tasks_very_request(robust: str, base: str, source: str, shared_data: Path) -> None:
    """Same messages and generation settings: at temperature 0 the clean pass gives the base
    task's answer (the embedded model answers it once per run), and the relative drop compares
    perturbed answers with exactly what the base task measured. Starter runs used 16 answer
    tokens for the MCQ clean passes against the base tasks' 64 until issue 17."""
    from trustmh.run.runner import build_tasks

    data_dir = str(shared_data) if source == "benchmark" else None
    robust_task, base_task = build_tasks([robust, base], source, data_dir)
    assert robust_task.config == base_task.config
    assert robust_task.config.temperature == 0.0
    clean = {s.metadata["base_id"]: s.input for s in robust_task.dataset if str(s.id).endswith("@clean")}
    base_inputs = {s.id: s.input for s in base_task.dataset}
    assert clean and clean == base_inputs


def test_declared_robustness_tasks_expose_their_options_to_inspect() -> None:
    """robustness_of gives each task real parameters: inspect passes ``-T labels=...`` only to a declared one."""
    import inspect as pyinspect

    from inspect_ai._eval.registry import task_create

    params = list(pyinspect.signature(robustness_crisis_classification).parameters)
    assert params == ["source", "data_dir", "kinds", "intensities", "seed", "labels"]
    assert "labels" not in pyinspect.signature(robustness_crisis_cssrs).parameters
    data = require_shared_data()
    task = task_create("trustmh/robustness_crisis_classification", data_dir=str(data), labels="llm", kinds="typos")
    assert task.dataset.name == "crisis_classification_llm_robustness"
    assert task.metadata["base_task"] == "crisis_classification" and task.metadata["trustmh_source"] == "benchmark"


@pytest.mark.parametrize("source", ["starter", "benchmark"])
@pytest.mark.parametrize(
    ("robust", "instruction"),
    [
        ("robustness_usmle_mental", "MCQ_INSTRUCTION"),
        ("robustness_emobench_eu", "EMOBENCH_INSTRUCTION"),
    ],
)
def test_mcq_variants_perturb_the_item_not_our_instruction(
    robust: str, instruction: str, source: str, tmp_path: Path, shared_data: Path
) -> None:
    """Issue 17: the instruction (our wording, both modes) is read verbatim by every variant, as
    the crisis tasks keep theirs; the question, options' text and scenario are perturbed, option
    markers kept."""
    from trustmh.pillars.reliability import prompts
    from trustmh.run.runner import build_tasks

    opening = getattr(prompts, instruction)
    opening = opening["en"] if isinstance(opening, dict) else opening
    (task,) = build_tasks([robust], source, str(shared_data) if source == "benchmark" else None)
    samples = list(task.dataset)[:8]  # clean + perturbed, four items
    outputs = {str(s.id): "A" for s in samples}
    log = replay_eval(task, write_replay(tmp_path / "r.jsonl", outputs), tmp_path, limit=len(samples))
    perturbed = [s for s in log.samples or [] if not str(s.id).endswith("@clean")]
    assert len(perturbed) == 4
    for sample in perturbed:
        record = sample.metadata["perturbation"]
        text = record["perturbed_input"]
        assert record["editable"] == "span" and record["changed"]
        assert text.startswith(opening) and str(sample.input).startswith(opening)
        item = str(sample.input)[len(opening) :]
        assert text[len(opening) :] != item  # the item itself was perturbed
        markers = [line[:3] for line in item.splitlines() if line[:2] in {"A.", "B.", "A)", "B)"}]
        assert markers == [line[:3] for line in text[len(opening) :].splitlines() if line[:3] in markers]
