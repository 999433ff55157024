"""Reliability tasks end to end: builders, parsers, scorers and metrics (mock models with
hand-computed expectations), the benchmark files, and the embedded model."""

from __future__ import annotations

import inspect as pyinspect
import math
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

import trustmh._registry  # noqa: F401  (registers the tasks and the trustmh model provider by name)
from tests.data.synthetic_files import d4_session, write_d4, write_swmh
from tests.fakes import scripted_model
from tests.pillars.reliability.running import run
from trustmh.core.errors import UserError
from trustmh.pillars.reliability import dataset as ds
from trustmh.pillars.reliability import tasks as T
from trustmh.pillars.reliability.scorers import joint_correct, parse_emobench
from trustmh.run.task_catalog import get_task_info

RELIABILITY_TASKS = [
    "reliability_usmle_mental",
    "reliability_crisis_qa",
    "reliability_emobench_eu",
    "reliability_swmh",
    "reliability_d4",
    "reliability_esconv_support",
    "reliability_cpsycoune",
]


# --- catalogue and builders -------------------------------------------------------------


def test_tasks_are_registered_with_their_pillar() -> None:
    for name in RELIABILITY_TASKS:
        info = get_task_info(name)
        assert info.pillar == "reliability" and info.description
    assert get_task_info("reliability_cpsycoune").needs_judge


def test_builder_signatures_for_the_robustness_pillar() -> None:
    assert list(pyinspect.signature(ds.usmle_dataset).parameters) == ["source", "data_dir"]
    params = pyinspect.signature(ds.emobench_dataset).parameters
    assert list(params) == ["source", "data_dir", "language"] and params["language"].default == "en"


def test_starter_suite_has_at_least_twenty_items() -> None:
    sizes = {
        "usmle": len(ds.usmle_dataset("starter", None)),
        "crisis": len(ds.crisis_qa_dataset("starter", None)),
        "emobench": len(ds.emobench_dataset("starter", None, "all")),
        "swmh": len(ds.swmh_dataset("starter", None)),
        "d4": len(ds.d4_dataset("starter", None)),
        "esconv": len(ds.esconv_dataset("starter", None)),
        "cpsycoune": len(ds.cpsycoune_dataset("starter", None)),
    }
    assert sizes == {"usmle": 8, "crisis": 6, "emobench": 8, "swmh": 5, "d4": 3, "esconv": 2, "cpsycoune": 1}
    assert sum(sizes.values()) >= 20


def test_mcq_samples_carry_prompt_options_and_letters() -> None:
    samples = list(ds.usmle_dataset("starter", None))
    first = samples[0]
    assert first.target == "A" and first.metadata["letters"] == "ABCDE"
    assert "A. Increased renal reabsorption of lithium" in first.input and "Answer: <letter>" in first.input
    # The starter file has a dict-as-string options row and a padded answer: both read.
    assert samples[6].metadata["options"]["B"] == "Hypophosphatemia" and samples[7].target == "C"


def test_emobench_language_option() -> None:
    assert len(ds.emobench_dataset("starter", None)) == 6
    zh = list(ds.emobench_dataset("starter", None, "zh"))
    assert len(zh) == 2 and "问题 1" in zh[0].input and zh[0].target == ["B", "A"]
    with pytest.raises(UserError, match="language"):
        ds.emobench_dataset("starter", None, "de")


def test_emobench_benchmark_builder(shared_data: Path) -> None:
    assert len(ds.emobench_dataset("benchmark", str(shared_data))) == 200
    assert len(ds.emobench_dataset("benchmark", str(shared_data), "all")) == 400
    sample = next(iter(ds.emobench_dataset("benchmark", str(shared_data), "zh")))
    assert sample.id.startswith("zh-") and sample.metadata["language"] == "zh"


def test_truncate_and_merge_helpers() -> None:
    assert ds.truncate_middle("abcdefghij", 0) == "abcdefghij"
    cut = ds.truncate_middle("a" * 50 + "b" * 50, 20, "..")
    assert len(cut) == 20 and cut.startswith("a" * 9) and cut.endswith("b" * 9)
    merged = ds.merge_turns(
        [("seeker", "hi"), ("supporter", "a"), ("supporter", "b"), ("seeker", " "), ("seeker", "ok")]
    )
    assert merged == [
        {"role": "seeker", "text": "hi"},
        {"role": "supporter", "text": "a\nb"},
        {"role": "seeker", "text": "ok"},
    ]


# --- parsers ----------------------------------------------------------------------------

EMO = {"A": "Joy", "B": "Relief", "C": "Anger", "D": "Fear"}
CAUSE = {"A": "She passed the exam", "B": "She lost her keys", "C": "It rained"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"emotion": "B", "cause": "A"}', ("B", "A")),
        ('```json\n{"answer_q1": "(C)", "answer_q2": "c"}\n```', ("C", "C")),
        ('{"emotion": "B) Relief", "cause": "She lost her keys"}', ("B", "B")),
        ('{"emotion": "B"}', ("B", None)),
        ('{"emotion": "B or C", "cause": "A"}', (None, "A")),
        ("Emotion: B\nCause: A", ("B", "A")),
        ("**Question 1:** D\n**Question 2:** C", ("D", "C")),
        ("1. A\n2. B", ("A", "B")),
        ("情绪：B\n原因：C", ("B", "C")),
        ("B, A", ("B", "A")),
        ("B C", ("B", "C")),
        ("A) Joy\nB) Relief", (None, None)),  # an echo of the options
        ("I am not sure.", (None, None)),
        ("", (None, None)),
    ],
)
def test_parse_emobench(text: str, expected: tuple[str | None, str | None]) -> None:
    assert parse_emobench(text, EMO, CAUSE) == expected


def test_joint_correct() -> None:
    assert joint_correct(1.0, 1.0) == 1.0
    assert joint_correct(1.0, 0.0) == 0.0
    assert joint_correct(None, 0.0) == 0.0  # known wrong whatever the other part says
    assert joint_correct(1.0, None) is None
    assert joint_correct(None, None) is None


# --- scorers and metrics with mock models (hand-computed expectations) ------------------


def test_mcq_accuracy_on_starter(tmp_path: Path) -> None:
    # Starter USMLE answers: A B D C B E B C -> "B" is right 3 times out of 8.
    summary = run(T.reliability_usmle_mental(source="starter"), scripted_model("The answer is (B)."), tmp_path)
    metrics = summary["metrics"]
    assert metrics["accuracy"] == pytest.approx(3 / 8)
    assert metrics["accuracy_n"] == 8 and metrics["accuracy_unparsed"] == 0
    low, high = metrics["accuracy_ci"]
    assert low < 3 / 8 < high
    # Crisis QA starter answers: B A C D C A -> "A" is right twice out of 6.
    summary = run(T.reliability_crisis_qa(source="starter"), scripted_model("A"), tmp_path)
    assert summary["metrics"]["accuracy"] == pytest.approx(2 / 6)


def test_unparsed_answers_are_counted_not_wrong(tmp_path: Path) -> None:
    summary = run(T.reliability_crisis_qa(source="starter"), scripted_model("I'd rather not say."), tmp_path, epochs=2)
    metrics = summary["metrics"]
    assert metrics["accuracy"] is None and metrics["accuracy_n"] == 0 and metrics["accuracy_unparsed"] == 6


def test_mcq_option_text_answers(tmp_path: Path) -> None:
    # Answering with the text of option C of every question: right where C is the answer.
    def reply(prompt: str) -> str:
        line = next(line for line in prompt.splitlines() if line.startswith("C. "))
        return f"I believe it is: {line[3:]}"

    summary = run(T.reliability_usmle_mental(source="starter"), scripted_model(reply), tmp_path)
    assert summary["metrics"]["accuracy"] == pytest.approx(2 / 8)  # two starter answers are C
    assert summary["metrics"]["accuracy_unparsed"] == 0


def test_emobench_metrics(tmp_path: Path) -> None:
    # Starter (en) emotion answers B B A A B C, cause answers A C B D C B.
    summary = run(
        T.reliability_emobench_eu(source="starter"), scripted_model('{"emotion": "A", "cause": "A"}'), tmp_path
    )
    metrics = summary["metrics"]
    assert metrics["emotion_accuracy"] == pytest.approx(2 / 6)
    assert metrics["cause_accuracy"] == pytest.approx(1 / 6)
    assert metrics["joint_accuracy"] == pytest.approx(0.0)
    assert metrics["joint_accuracy_n"] == 6
    assert metrics["joint_accuracy[language=en]"] == pytest.approx(0.0)
    assert metrics["joint_accuracy[coarse_category=complex_emotions]_n"] == 2


def test_emobench_joint_needs_both(tmp_path: Path) -> None:
    # zh starter: (B, A) and (C, B).
    summary = run(
        T.reliability_emobench_eu(source="starter", language="zh"),
        scripted_model('{"emotion": "B", "cause": "A"}'),
        tmp_path,
    )
    metrics = summary["metrics"]
    assert metrics["emotion_accuracy"] == pytest.approx(0.5) and metrics["cause_accuracy"] == pytest.approx(0.5)
    assert metrics["joint_accuracy"] == pytest.approx(0.5)


SWMH_REPLIES = {
    "painting": "A",
    "phone buzzes": "Answer: A",
    "mood stabilizer": "C",
    "burden": "(D)",
    "engaged": "E. general venting",
}


def swmh_reply(prompt: str) -> str:
    return next(answer for key, answer in SWMH_REPLIES.items() if key in prompt)


def test_swmh_accuracy_and_macro_f1(tmp_path: Path) -> None:
    # Gold A B C D E, predicted A A C D E: accuracy 4/5.
    # F1: A = 2/3 (TP 1, FP 1), B = 0 (FN 1), C = D = E = 1 -> macro (2/3 + 3) / 5.
    summary = run(T.reliability_swmh(source="starter"), scripted_model(swmh_reply), tmp_path)
    metrics = summary["metrics"]
    assert metrics["accuracy"] == pytest.approx(0.8)
    assert metrics["macro_f1"] == pytest.approx((2 / 3 + 3) / 5)
    assert metrics["macro_f1_n"] == 5 and metrics["macro_f1_unparsed"] == 0
    assert metrics["f1[class=self.Anxiety]"] == 0.0
    assert metrics["f1[class=self.depression]"] == pytest.approx(2 / 3)
    low, high = metrics["macro_f1_ci"]
    assert 0.0 <= low <= high <= 1.0


def test_swmh_on_a_data_folder(tmp_path: Path) -> None:
    root = write_swmh(
        tmp_path / "data",
        [
            ("I keep painting less and less", "self.depression"),
            ("my phone buzzes and I panic", "self.Anxiety"),
            ("no idea", "self.offmychest"),
        ],
    )
    summary = run(
        T.reliability_swmh(data_dir=str(root)),
        scripted_model(lambda prompt: "A" if "painting" in prompt else "unsure"),
        tmp_path,
    )
    assert summary["source"] == "benchmark" and summary["n"] == 3
    metrics = summary["metrics"]
    assert metrics["accuracy"] == 1.0 and metrics["accuracy_unparsed"] == 2 and metrics["macro_f1"] == 1.0


def test_d4_severity(tmp_path: Path) -> None:
    # Starter gold levels 0, 2, 3; always "A" (none): accuracy 1/3.
    # F1: none = 2/4 (TP 1, FP 2), moderate = severe = 0 -> macro 1/6.
    summary = run(T.reliability_d4(source="starter"), scripted_model("答案：A"), tmp_path)
    assert summary["metrics"]["accuracy"] == pytest.approx(1 / 3)
    assert summary["metrics"]["macro_f1"] == pytest.approx(1 / 6)
    # Binary: gold none, any, any -> F1 none = 1/2, any = 0 -> macro 1/4.
    summary = run(T.reliability_d4(source="starter", binary=True), scripted_model("答案：A"), tmp_path)
    assert summary["metrics"]["accuracy"] == pytest.approx(1 / 3)
    assert summary["metrics"]["macro_f1"] == pytest.approx(1 / 4)
    # Suicide risk: starter srisk 0, 1, 2; "B" (low) is right once.
    summary = run(T.reliability_d4(source="starter", target="srisk"), scripted_model("选B"), tmp_path)
    assert summary["metrics"]["accuracy"] == pytest.approx(1 / 3)


def test_d4_on_a_data_folder(tmp_path: Path) -> None:
    root = write_d4(tmp_path / "data", [d4_session(0, 0), d4_session(3, 1), d4_session(7, 3)])
    summary = run(T.reliability_d4(data_dir=str(root)), scripted_model("D"), tmp_path)
    assert summary["n"] == 3 and summary["metrics"]["accuracy"] == pytest.approx(2 / 3)


def test_registry_name_and_task_args(tmp_path: Path) -> None:
    logs = inspect_eval(
        "trustmh/reliability_crisis_qa",
        task_args={"source": "starter"},
        model=scripted_model("B"),
        display="none",
        log_dir=str(tmp_path / "logs"),
    )
    assert logs[0].status == "success" and logs[0].results.total_samples == 6


# --- the benchmark files via data_dir ---------------------------------------------------


@pytest.mark.parametrize(
    ("name", "kwargs", "n"),
    [
        ("reliability_usmle_mental", {}, 12),
        ("reliability_crisis_qa", {}, 12),
        ("reliability_emobench_eu", {"language": "zh"}, 12),
        ("reliability_esconv_support", {"max_turns": 1}, 3),
        ("reliability_cpsycoune", {"max_turns": 1}, 3),
    ],
)
def test_benchmark_runs_on_the_shared_data(shared_data: Path, tmp_path: Path, name: str, kwargs: dict, n: int) -> None:
    task = getattr(T, name)(data_dir=str(shared_data), **kwargs)
    summary = run(task, scripted_model('Answer: A {"emotion": "A", "cause": "A"}'), tmp_path, limit=n)
    assert summary["source"] == "benchmark" and summary["n"] == n


def test_benchmark_accuracy_of_a_constant_answer(shared_data: Path, tmp_path: Path) -> None:
    # All 153 Crisis QA questions answered "C": accuracy = share of C answers = 43/153.
    summary = run(T.reliability_crisis_qa(data_dir=str(shared_data)), scripted_model("C"), tmp_path)
    assert summary["metrics"]["accuracy"] == pytest.approx(43 / 153) and summary["metrics"]["accuracy_n"] == 153


# --- the embedded model -----------------------------------------------------------------

SMALL = {"max_tokens": 16}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "kwargs"),
    [
        ("reliability_usmle_mental", SMALL),
        ("reliability_crisis_qa", SMALL),
        ("reliability_emobench_eu", {"max_tokens": 24, "language": "all"}),
        ("reliability_swmh", SMALL),
        ("reliability_d4", SMALL),
        ("reliability_esconv_support", {"max_tokens": 24, "max_turns": 1}),
        ("reliability_cpsycoune", {"max_tokens": 24, "max_turns": 1, "max_history": 4}),
    ],
)
def test_embedded_model_on_starter_items(tmp_path: Path, name: str, kwargs: dict) -> None:
    summary = run(getattr(T, name)(source="starter", **kwargs), "trustmh/smollm2", tmp_path, limit=1)
    assert summary["source"] == "starter" and summary["n"] == 1
    for metric in get_task_info(name).metrics:
        assert metric in summary["metrics"]
        if metric in ("reply_length", "accuracy", "emotion_accuracy"):
            value = summary["metrics"][metric]
            assert value is None or (not math.isnan(value) and value >= 0)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "kwargs"),
    [
        ("reliability_usmle_mental", SMALL),
        ("reliability_emobench_eu", SMALL),
        ("reliability_cpsycoune", {"max_tokens": 16, "max_turns": 1, "max_history": 2}),
    ],
)
def test_embedded_model_on_the_shared_data(shared_data: Path, tmp_path: Path, name: str, kwargs: dict) -> None:
    summary = run(getattr(T, name)(data_dir=str(shared_data), **kwargs), "trustmh/smollm2", tmp_path, limit=1)
    assert summary["source"] == "benchmark" and summary["n"] == 1
