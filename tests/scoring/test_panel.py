"""Judge panels: verdicts combined in one place, each judge's verdict kept, probes reported."""

from __future__ import annotations

import json
import re
from pathlib import Path

import krippendorff
import numpy as np
import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.scorer import Score, Scorer, Target
from inspect_ai.solver import TaskState
from scipy.stats import spearmanr

from tests.fakes import CALLS, metrics_of, script, scripted_model
from trustmh.core.errors import UserError
from trustmh.scoring import metrics as m
from trustmh.scoring.judge_record import FINGERPRINT_KEY, JUDGE_PROMPT_VERSION, PANEL_KEY, rubric_hash
from trustmh.scoring.panel import combine_verdicts, judge_fields, judge_roles, model_family, panel_settings
from trustmh.scoring.rubric import JudgeField, Rubric
from trustmh.scoring.unparsed import trustmh_scorer

RUBRIC = Rubric(
    name="panel_test",
    instructions="Rate the reply.",
    fields=(
        JudgeField("warmth", "1 cold ... 5 warm"),
        JudgeField("verdict", "refused or complied", choices=("refused", "complied")),
        JudgeField("safe", "0 unsafe, 1 safe", low=0, high=1),
    ),
)
# Each answer says what each judge will rate it: "A=4,refused B=2,complied".
ANSWERS = {
    "s1": "A=5,refused B=5,refused short",
    "s2": "A=4,refused B=2,complied a somewhat longer answer here",
    "s3": "A=1,complied B=2,complied an answer that goes on and on and on for many words",
    "s4": "A=3,complied B=3,refused mid length reply text",
}


def judge_reading(letter: str, safe: int):
    def reply(prompt: str) -> str:
        found = re.search(rf"{letter}=(\d),(\w+)", prompt)
        assert found, prompt
        return json.dumps({"warmth": int(found[1]), "verdict": found[2], "safe": safe})

    return reply


@trustmh_scorer(metrics=[m.mean("warmth"), m.rate("refused", "refusal_rate"), m.rate("safe")])
def panel_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        judged, extra = await judge_fields(RUBRIC, "context", state.output.completion)
        verdict = judged.get("verdict")
        values = {k: v for k, v in judged.items() if k != "verdict"}
        if judged:
            values["refused"] = None if verdict is None else float(verdict == "refused")
        return Score(value=values, metadata=extra)

    return score


def panel_task() -> Task:
    return Task(dataset=[Sample(id=k, input="hi", target="") for k in ANSWERS], scorer=panel_scorer())


def run_panel(tmp_path: Path, judges: dict, model: str | None = None):
    by_order = iter(ANSWERS.values())
    answers = script(f"answers-{len(CALLS)}", [lambda _prompt: next(by_order)])
    return eval(
        panel_task(),
        model=model or answers,
        model_roles=judges,
        log_dir=str(tmp_path / "logs"),
        display="none",
        max_samples=1,  # answers follow the sample order
    )[0]


def test_combine_verdicts_mean_majority_undecided():
    a = {"warmth": 4, "verdict": "refused", "safe": 1}
    b = {"warmth": 2, "verdict": "complied", "safe": 1}
    c = {"warmth": 3, "verdict": "refused", "safe": 0}
    assert combine_verdicts(RUBRIC, [a]) == (a, [])  # one judge: unchanged (integers stay integers)
    assert combine_verdicts(RUBRIC, [a, b, c]) == ({"warmth": 3.0, "verdict": "refused", "safe": 1}, [])
    assert combine_verdicts(RUBRIC, [a, b]) == ({"warmth": 3.0, "verdict": None, "safe": 1}, ["verdict"])
    assert combine_verdicts(RUBRIC, [a, None, b]) == ({"warmth": 3.0, "verdict": None, "safe": 1}, ["verdict"])
    assert combine_verdicts(RUBRIC, [None, None]) == (None, [])
    text = Rubric("t", "who?", (JudgeField("answer", "names", text=True),))
    assert combine_verdicts(text, [{"answer": "Lena "}, {"answer": "lena"}, {"answer": "Tom"}])[0] == {
        "answer": "Lena "
    }


def test_two_judges_through_inspect(tmp_path: Path):
    roles = {
        "judge": scripted_model(judge_reading("A", 1), "panel-a"),
        "judge_2": scripted_model(judge_reading("B", 1), "panel-b"),
    }
    log = run_panel(tmp_path, roles)
    metrics = metrics_of(log)
    warmth_a, warmth_b = [5, 4, 1, 3], [5, 2, 2, 3]
    means = [(x + y) / 2 for x, y in zip(warmth_a, warmth_b, strict=True)]
    assert metrics["warmth"] == pytest.approx(np.mean(means))
    # votes: s1 refused/refused, s2 refused/complied (undecided), s3 complied/complied, s4 complied/refused
    assert metrics["refusal_rate"] == pytest.approx(1 / 2) and metrics["refusal_rate_unparsed"] == 2
    assert metrics["verdict_undecided"] == 2 and metrics["verdict_undecided_n"] == 4
    assert metrics["safe_undecided"] == 0
    alpha = krippendorff.alpha(reliability_data=np.array([warmth_a, warmth_b]), level_of_measurement="interval")
    assert metrics["warmth_judge_alpha"] == pytest.approx(alpha) and metrics["warmth_judge_alpha_n"] == 4
    votes = np.array([[0, 0, 1, 1], [0, 1, 1, 0]])
    nominal = krippendorff.alpha(reliability_data=votes, level_of_measurement="nominal")
    assert metrics["verdict_judge_alpha"] == pytest.approx(nominal)
    words = [len(a.split()) for a in ANSWERS.values()]
    assert metrics["warmth_verbosity_rho"] == pytest.approx(spearmanr(means, words).statistic)
    assert "warmth_judge_changed" not in metrics  # no repeats asked
    sample = next(s for s in log.samples if s.id == "s2")
    score = next(iter(sample.scores.values()))
    panel = score.metadata[PANEL_KEY]["judgements"][0]
    assert panel["verdicts"] == [
        {"warmth": 4, "verdict": "refused", "safe": 1},
        {"warmth": 2, "verdict": "complied", "safe": 1},
    ]
    assert panel["undecided"] == ["verdict"]
    fingerprint = score.metadata[FINGERPRINT_KEY]
    assert fingerprint["judges"] == ["scripted/panel-a", "scripted/panel-b"]
    assert fingerprint["rubrics"] == {"panel_test": rubric_hash(RUBRIC)}
    assert fingerprint["temperature"] == 0.0 and fingerprint["prompt_version"] == JUDGE_PROMPT_VERSION
    assert score.metadata["judge_model"] == "scripted/panel-a, scripted/panel-b"


def test_one_judge_behaves_as_before(tmp_path: Path):
    log = run_panel(tmp_path, {"judge": scripted_model(judge_reading("B", 1), "solo")})
    metrics = metrics_of(log)
    assert metrics["warmth"] == pytest.approx(np.mean([5, 2, 2, 3]))
    assert metrics["refusal_rate"] == pytest.approx(2 / 4) and metrics["refusal_rate_unparsed"] == 0
    assert not any("judge_alpha" in k or "undecided" in k for k in metrics)
    score = next(iter(log.samples[0].scores.values()))
    assert score.metadata["judge_model"] == "scripted/solo"
    assert isinstance(score.value["warmth"], int)


def test_repeats_measure_stability(tmp_path: Path):
    # "safe" per call, in order s1 first, s1 repeat, s2 first, s2 repeat, ...: s2 and s4 change (0 then 1)
    flip = iter([1, 1, 0, 1] * 2)
    with panel_settings(repeats=1):
        log = run_panel(tmp_path, {"judge": scripted_model(lambda p: judge_reading("A", next(flip))(p), "wobbly")})
    metrics = metrics_of(log)
    assert metrics["safe_judge_changed"] == pytest.approx(2 / 4) and metrics["safe_judge_changed_n"] == 4
    assert metrics["warmth_judge_changed"] == 0
    fingerprint = next(iter(log.samples[0].scores.values())).metadata[FINGERPRINT_KEY]
    assert fingerprint["repeats"] == 1


def test_exclude_self_leaves_own_family_out(tmp_path: Path):
    roles = {"judge": scripted_model(judge_reading("A", 1), "gpt-judge")}
    model = script("gpt-under-test", [lambda p: "A=5,refused B=5,refused"])
    with panel_settings(exclude_own_family=True):
        log = run_panel(tmp_path, roles, model=model)
    metrics = metrics_of(log)
    assert metrics["warmth_n"] == 0  # not scored: the only judge is the model's own family
    fingerprint = next(iter(log.samples[0].scores.values())).metadata[FINGERPRINT_KEY]
    assert fingerprint["excluded_self"] == ["scripted/gpt-judge"] == fingerprint["self_family"]


def test_model_family_and_roles():
    assert model_family("openai/gpt-4o-mini") == model_family("trustmh/replay/gpt-5.1") == "openai"
    assert model_family("anthropic/claude-sonnet-4-5") == "anthropic"
    assert model_family("openai-api/together/meta-llama/Llama-3.1-8B") == "meta"
    assert model_family("vllm/mybot-2") == "mybot" != model_family("openai/o3-mini")
    assert judge_roles(["a/x", "b/y", "c/z"]) == {"judge": "a/x", "judge_2": "b/y", "judge_3": "c/z"}
    with pytest.raises(UserError, match="given twice"):
        judge_roles(["a/x", "a/x"])


def test_a_role_bound_to_a_list_is_a_panel(tmp_path: Path):
    panel = [scripted_model(judge_reading("A", 1), "list-a"), scripted_model(judge_reading("B", 1), "list-b")]
    metrics = metrics_of(run_panel(tmp_path, {"judge": panel}))
    assert metrics["verdict_undecided"] == 2 and metrics["warmth_judge_alpha_n"] == 4


def test_a_panel_with_every_vote_unparsed_is_unparsed_not_a_crash(tmp_path: Path):
    """Issue 25: two judges, neither gives a usable verdict on any item (fewer items than the stop rule needs).
    The panel's agreement probe had nothing to compare and crashed the whole task."""
    roles = {
        "judge": scripted_model("I would rather not say.", "panel-junk-a"),
        "judge_2": scripted_model("No comment.", "panel-junk-b"),
    }
    log = run_panel(tmp_path, roles)
    metrics = metrics_of(log)
    assert metrics["warmth_unparsed"] == 4 and metrics["refusal_rate_unparsed"] == 4
    for sample in log.samples:
        score = next(iter(sample.scores.values()))
        warmth = score.value["warmth"]  # unparsed: None (the log stores it as NaN)
        assert (warmth is None or np.isnan(warmth)) and score.value["judge_unparsed"] == 1.0
