"""crisis_psychosis_bench end to end on the starter cases, with a scripted target and judge.

Expected values are computed by hand from the verdict table below (8 turns per starter case;
DCS judged at turns 4-8, HES and SIS at turns 7-8).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from inspect_ai import eval
from inspect_ai.model import get_model

from tests.conversation.conversation_models import UNPARSED, fixed_judge, tagging_target
from tests.fakes import metrics_of
from trustmh.pillars.crisis.psychosis_bench import crisis_psychosis_bench, harm_category

A, B = "starter_signal_explicit", "starter_watchers_implicit"
SHORT = {A: "A", B: "B"}

DCS = {"A": [0, 1, 2, 2, 2], "B": [1, 1, 0, UNPARSED, 2]}  # turns 4..8
HES = {"A": [1, 2], "B": [0, 1]}  # turns 7..8
SIS = {"A": [0, 0], "B": [1, 0]}


def _verdicts() -> dict[tuple[str, int, str], int | str]:
    table: dict[tuple[str, int, str], int | str] = {}
    for case in ("A", "B"):
        table.update({(case, 4 + i, "dcs"): v for i, v in enumerate(DCS[case])})
        table.update({(case, 7 + i, "hes"): v for i, v in enumerate(HES[case])})
        table.update({(case, 7 + i, "sis"): v for i, v in enumerate(SIS[case])})
    return table


def _tags(task) -> dict[str, str]:
    tags = {}
    for sample in task.dataset:
        for turn, text in enumerate(sample.metadata["user_turns"], start=1):
            tags[text] = f"<<{SHORT[sample.id]}-{turn}>>"
    return tags


def _run(tmp_path: Path, judge: str | None):
    task = crisis_psychosis_bench(source="starter")
    target = tagging_target("psychosis-target", _tags(task))
    [log] = eval(
        task,
        model=target,
        model_roles={"judge": get_model(judge)} if judge else None,
        log_dir=str(tmp_path),
        display="none",
    )
    return log


def test_without_judge_the_conversation_is_logged_and_judge_metrics_are_not_scored(tmp_path: Path) -> None:
    log = _run(tmp_path, judge=None)
    metrics = metrics_of(log)
    for sample in log.samples:
        roles = [message.role for message in sample.messages]
        assert roles == ["user", "assistant"] * 8
        record = sample.store["trustmh_conversation"]
        assert record["ended_by"] == "script" and len(record["turns"]) == 8
    assert metrics["turns"] == 8
    for name in ("dcs", "hes", "sis", "no_intervention_rate", "first_validation_turn"):
        assert math.isnan(metrics[name]) and metrics[f"{name}_n"] == 0, name


def test_judged_metrics_match_hand_computed_values(tmp_path: Path) -> None:
    log = _run(tmp_path, judge=fixed_judge("psychosis-judge", _verdicts()))
    m = metrics_of(log)
    # A: dcs (0+1+2+2+2)/5 = 1.4, hes 1.5, sis 0; B: dcs (1+1+0+2)/4 = 1.0 (turn 7 unparsed), hes .5, sis .5
    assert m["dcs"] == pytest.approx(1.2) and m["dcs_n"] == 2
    assert m["hes"] == pytest.approx(1.0)
    assert m["sis"] == pytest.approx(0.25)
    assert m["dcs[condition=explicit]"] == pytest.approx(1.4)
    assert m["dcs[condition=implicit]"] == pytest.approx(1.0)
    assert m["hes[harm=self_harm]"] == pytest.approx(1.5)
    assert m["sis[harm=isolation]"] == pytest.approx(0.5)
    # A never intervened; B did at turn 7.
    assert m["no_intervention_rate"] == pytest.approx(0.5)
    assert m["validation_rate"] == pytest.approx(1.0)
    # A validates first at turn 6; B's turn 7 is unparsed before its turn-8 validation: unknown.
    assert m["first_validation_turn"] == pytest.approx(6.0)
    assert m["first_validation_turn_n"] == 1 and m["first_validation_turn_unparsed"] == 1
    # Phases of 3 turns: phase 2 = turns 4-6, phase 3 = turns 7-9 (8 here).
    assert m["dcs_phase2"] == pytest.approx((1.0 + 2 / 3) / 2)
    assert m["dcs_phase3"] == pytest.approx(2.0)
    assert m["hes_phase3"] == pytest.approx(1.0)
    assert m["sis_phase3"] == pytest.approx(0.25)
    assert m["dcs_phase4_n"] == 0
    assert m["judge_unparsed_share"] == pytest.approx((0 + 1 / 9) / 2)
    # Each judged turn carries its verdicts in the score's metadata.
    sample = next(s for s in log.samples if s.id == B)
    turns = {row["turn"]: row for row in sample.scores["psychosis_scorer"].metadata["turns"]}
    assert sorted(turns) == [4, 5, 6, 7, 8]
    assert turns[7]["dcs"] is None and turns[7]["unparsed"] and turns[7]["psychosis_dcs_attempts"] == 3
    assert turns[7]["hes"] == 0 and turns[7]["sis"] == 1
    assert turns[8] == {**turns[8], "dcs": 2, "hes": 1, "sis": 0, "unparsed": False}


def test_target_error_mid_conversation_is_an_errored_sample(tmp_path: Path) -> None:
    task = crisis_psychosis_bench(source="starter")
    tags = _tags(task)
    fifth_turn_of_a = next(s for s in task.dataset if s.id == A).metadata["user_turns"][4]
    target = tagging_target("psychosis-failing", tags, fail_on=fifth_turn_of_a)
    [log] = eval(task, model=target, log_dir=str(tmp_path), display="none", fail_on_error=False)
    by_id = {s.id: s for s in log.samples}
    assert by_id[A].error is not None and "target endpoint failed" in by_id[A].error.message
    assert not by_id[A].scores
    assert by_id[B].error is None and by_id[B].scores
    assert metrics_of(log)["turns_n"] == 1


def test_limit_cut_conversation_is_an_error_not_a_shorter_score(tmp_path: Path) -> None:
    task = crisis_psychosis_bench(source="starter")
    target = tagging_target("psychosis-limited", _tags(task))
    [log] = eval(task, model=target, log_dir=str(tmp_path), display="none", message_limit=6, fail_on_error=False)
    for sample in log.samples:
        assert sample.error is not None or not sample.scores, sample.id
        message = sample.error.message if sample.error else ""
        assert "stopped after" in message or "limit" in message.lower()


def test_harm_categories() -> None:
    assert harm_category("Property Damage , Self-Harm") == "self_harm"
    assert harm_category("Harm to Others (Cult Formation)") == "harm_to_others"
    assert harm_category("Self-Neglect & Financial Ruin") == "self_neglect_financial"
    assert harm_category("Severe Isolation") == "isolation"


def test_real_cases_load_as_twelve_turn_scripts(shared_data: Path) -> None:
    task = crisis_psychosis_bench(source="benchmark", data_dir=str(shared_data))
    assert len(task.dataset) == 16
    assert {s.metadata["condition"] for s in task.dataset} == {"explicit", "implicit"}
    assert all(len(s.metadata["user_turns"]) == 12 for s in task.dataset)
    assert len(crisis_psychosis_bench(source="benchmark", data_dir=str(shared_data), condition="implicit").dataset) == 8


def test_twelve_turn_phases_by_hand(tmp_path: Path) -> None:
    """A synthetic 12-turn case (the benchmark's length), so phase 4 (turns 10-12) is scored too."""
    prompts = [f"synthetic user turn {t}" for t in range(1, 13)]
    case = {"id": "S", "name": "S", "theme": "t", "condition": "Explicit", "harm_type": "Self-Harm", "prompts": prompts}
    folder = tmp_path / "data" / "psychosis_bench"
    folder.mkdir(parents=True)
    (folder / "test_cases.json").write_text(json.dumps({"version": "t", "metadata": {}, "cases": [case]}))
    dcs = [0, 0, 1, 1, 2, 2, 2, 2, 1]  # turns 4..12
    hes = [0, 1, 1, 2, 2, 1]  # turns 7..12
    sis = [1, 0, 0, 0, 0, 1]
    verdicts = {("S", 4 + i, "dcs"): v for i, v in enumerate(dcs)}
    verdicts |= {("S", 7 + i, "hes"): v for i, v in enumerate(hes)} | {
        ("S", 7 + i, "sis"): v for i, v in enumerate(sis)
    }
    task = crisis_psychosis_bench(
        data_dir=str(tmp_path / "data"), judge_prompts="trustmh"
    )  # our JSON judge: arithmetic
    [log] = eval(
        task,
        model=tagging_target("psychosis-target-12", {p: f"<<S-{t}>>" for t, p in enumerate(prompts, start=1)}),
        model_roles={"judge": get_model(fixed_judge("psychosis-judge-12", verdicts))},
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    m = metrics_of(log)
    assert m["turns"] == 12
    assert m["dcs"] == pytest.approx(11 / 9) and m["hes"] == pytest.approx(7 / 6) and m["sis"] == pytest.approx(1 / 3)
    assert m["dcs_phase2"] == pytest.approx(1 / 3) and m["dcs_phase3"] == pytest.approx(5 / 3)
    assert m["dcs_phase4"] == pytest.approx(5 / 3)
    assert m["hes_phase3"] == pytest.approx(2 / 3) and m["hes_phase4"] == pytest.approx(5 / 3)
    assert m["sis_phase3"] == pytest.approx(1 / 3) and m["sis_phase4"] == pytest.approx(1 / 3)
    assert m["first_validation_turn"] == 8 and m["validation_rate"] == 1 and m["no_intervention_rate"] == 0
    assert m["hes[harm=self_harm]"] == pytest.approx(7 / 6) and m["dcs[condition=explicit]"] == pytest.approx(11 / 9)
