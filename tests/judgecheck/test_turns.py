"""Per-turn ratings of a conversation task: ``trustmh judge-check --log`` on a scripted psychosis run.

Expected values are worked out by hand from the scripted judge's table (tests/judgecheck/conversation_run.py).
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from tests.judgecheck.conversation_run import judge_table, psychosis_log
from tests.judgecheck.test_cli import app  # noqa: F401 (the fixture)
from trustmh.core.errors import UserError
from trustmh.judgecheck import check
from trustmh.judgecheck.ratings import read_ratings
from trustmh.judgecheck.verdicts import from_log, from_ratings_file

A, B = "starter_signal_explicit", "starter_watchers_implicit"


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return psychosis_log(tmp_path_factory.mktemp("psychosis"))


def _human(path: Path, rows: list[str], header: str = "sample_id,turn,field,rater,score") -> Path:
    path.write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    return path


def _identical_rows(field: str) -> list[str]:
    """The human gives the judge's verdict on every turn (2 where the judge's reply never parsed)."""
    return [
        f"{sample},{turn},{field},h,{2 if value == 'unparsed' else value}"
        for (sample, turn), value in judge_table()[field].items()
    ]


def _run(log: Path, human: Path, n_boot: int = 0) -> dict[str, dict]:
    result = check(read_ratings(human), str(human), from_log(log), n_boot=n_boot)
    return {row.field: row.to_json() for row in result.fields}


def test_the_log_holds_every_judged_turn(log: Path) -> None:
    verdicts = from_log(log)
    assert verdicts.turn_fields == ["dcs", "hes", "sis"]
    assert verdicts.turn_counts == {A: 8, B: 8}
    assert verdicts.turn_values[(A, 5, "dcs")] == 1.0 and verdicts.turn_values[(B, 7, "dcs")] is None
    assert (A, 3, "dcs") not in verdicts.turn_values  # DCS is judged from turn 4
    # Per-turn DCS feeds the conversation means, the phases, the validation rate and the first validation.
    metrics = verdicts.derived_metric_fields["dcs"]
    assert {"dcs", "validation_rate", "first_validation_turn", "dcs_phase2"} <= set(metrics)
    assert "no_intervention_rate" in verdicts.derived_metric_fields["sis"]


def test_identical_ratings_on_every_turn_agree_perfectly(log: Path, tmp_path: Path) -> None:
    human = _human(tmp_path / "h.csv", _identical_rows("dcs") + _identical_rows("hes"))
    rows = _run(log, human, n_boot=100)
    dcs = rows["dcs"]
    # 10 rated turns (5 per case); B's turn 7 is unparsed and left out of n.
    assert dcs["unit"] == "turn" and dcs["n"] == 9 and dcs["judge_unparsed"] == 1 and dcs["not_judged"] == 0
    assert dcs["kind"] == "scale" and dcs["agreement"] == "icc_a1"
    assert dcs["value"] == pytest.approx(1.0) and dcs["alpha"] == pytest.approx(1.0) and dcs["bias"] == 0.0
    assert rows["hes"]["value"] == pytest.approx(1.0) and rows["hes"]["n"] == 4
    assert "validation_rate" in dcs["metrics"]


def test_a_known_disagreement_gives_the_hand_computed_values(log: Path, tmp_path: Path) -> None:
    # SIS (0/1) at A7, A8, B7, B8: judge 0 0 1 0, human 0 1 1 0 -> p_o = 3/4; judge rate 1/4, human 1/2
    # -> p_e = 1/4*1/2 + 3/4*1/2 = 1/2 -> Cohen's kappa = (3/4 - 1/2) / (1 - 1/2) = 1/2.
    # HES at the same turns: judge 1 2 0 1, human 1 2 1 1. Two-way ANOVA (n=4 items, k=2 coders), grand
    # mean 9/8: MSR = 2.375/3, MSC = 0.125, MSE = 0.375/3 = 0.125 -> ICC(A,1) = (MSR - MSE) /
    # (MSR + MSE + 2 (MSC - MSE) / 4) = (19/24 - 3/24) / (19/24 + 3/24) = 8/11; bias = 1 - 1.25.
    human = _human(
        tmp_path / "h.csv",
        [
            *(f"{s},{t},sis,h,{v}" for s, t, v in [(A, 7, 0), (A, 8, 1), (B, 7, 1), (B, 8, 0)]),
            *(f"{s},{t},hes,h,{v}" for s, t, v in [(A, 7, 1), (A, 8, 2), (B, 7, 1), (B, 8, 1)]),
        ],
    )
    rows = _run(log, human)
    sis, hes = rows["sis"], rows["hes"]
    assert sis["kind"] == "binary" and sis["agreement"] == "cohen_kappa" and sis["n"] == 4
    assert sis["value"] == pytest.approx(0.5)
    assert sis["confusion"] == {"tp": 1, "fp": 0, "fn": 1, "tn": 2}
    assert hes["value"] == pytest.approx(8 / 11) and hes["bias"] == pytest.approx(-0.25)


def test_per_turn_intervals_resample_whole_conversations(log: Path, tmp_path: Path) -> None:
    # The SIS pattern above, resampled by conversation: a replicate holds A twice (judge 0 0 0 0, human
    # 0 1 0 1: p_o = p_e = 1/2, kappa 0), B twice (identical: kappa 1) or both (1/2) -> 95% CI [0, 1].
    human = _human(
        tmp_path / "h.csv", [f"{s},{t},sis,h,{v}" for s, t, v in [(A, 7, 0), (A, 8, 1), (B, 7, 1), (B, 8, 0)]]
    )
    sis = _run(log, human, n_boot=1000)["sis"]
    assert sis["value"] == pytest.approx(0.5) and sis["ci"] == [0.0, 1.0]
    assert sis["alpha_ci"][1] == pytest.approx(1.0)


def test_rows_without_a_turn_keep_their_meaning(log: Path, tmp_path: Path) -> None:
    # dcs without a turn is the conversation's score field: the mean over its parsed turns (A 1.4, B 1.0).
    human = _human(tmp_path / "h.csv", [f"{A},,dcs,h,1.4", f"{B},,dcs,h,1.0"])
    dcs = _run(log, human)["dcs"]
    assert dcs["unit"] == "sample" and dcs["n"] == 2 and dcs["bias"] == pytest.approx(0.0)
    assert "validation_rate" not in dcs["metrics"] and "dcs" in dcs["metrics"]


def test_jsonl_takes_the_turn_key(log: Path, tmp_path: Path) -> None:
    lines = [
        json.dumps({"sample_id": s, "turn": t, "field": "sis", "rater": "h", "score": v})
        for (s, t), v in judge_table()["sis"].items()
    ]
    human = tmp_path / "h.jsonl"
    human.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert _run(log, human)["sis"]["value"] == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        (f"{A},9,dcs,h,1", f"sample {A!r} has 8 turns; found turn 9"),
        (f"{A},2,dcs,h,1", "no 'dcs' verdict at turn 2 (judged at 4, 5, 6, 7, 8)"),
        (f"{A},,dcs,h,1", "'dcs' is rated per turn elsewhere"),
        (f"{A},4.5,dcs,h,1", "expected a whole turn number"),
        (f"{A},3,turns,h,8", "'turns' is not judged per turn"),
    ],
)
def test_bad_turns_name_the_line_and_column(log: Path, tmp_path: Path, row: str, expected: str) -> None:
    human = _human(tmp_path / "h.csv", [f"{B},8,dcs,h,2", row])
    with pytest.raises(UserError) as caught:
        _run(log, human)
    assert f"{human}:line 3, column 'turn'" in str(caught.value) and expected in str(caught.value)


def test_a_field_judged_only_per_turn_needs_the_turn(tmp_path: Path) -> None:
    judge = _human(tmp_path / "judge.csv", ["c1,2,names_risk,gpt,1", "c1,3,names_risk,gpt,0"])
    human = _human(tmp_path / "h.csv", ["c1,,names_risk,ann,1"])
    with pytest.raises(UserError, match=r"h.csv:line 2, column 'turn': field 'names_risk' is judged per turn"):
        check(read_ratings(human), str(human), from_ratings_file(judge), n_boot=0)


@pytest.mark.parametrize(
    ("run", "per_turn", "derived"),
    [
        (
            "test_simulated_risk:test_end_to_end_with_scripted_models",
            ["high_harm", "names_risk"],
            # the whole-conversation dimension labels are verdict fields, checkable per conversation
            {
                "names_risk": "risk_detected_rate",
                "high_harm": "any_high_harm_turn_rate",
                "detects_risk": "detects_risk_best_practice",
            },
        ),
        ("test_crescendo:test_end_to_end", ["objective_reached", "verdict"], {"verdict": "first_compliance_turn"}),
        (
            "test_mindeval:test_end_to_end_scores_by_hand",
            ["ai_communication", "assessment_response", "clinical_accuracy", "ethical_conduct", "overall"]
            + ["therapeutic_alliance"],
            {"clinical_accuracy": "overall_at_half"},
        ),
    ],
)
def test_every_conversation_task_exposes_its_turns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: str, per_turn: list[str], derived: dict[str, str]
) -> None:
    """Each task's own end-to-end test (scripted models) makes the log; its judged turns are all there."""
    module, test = run.split(":")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    getattr(importlib.import_module(f"tests.conversation.{module}"), test)(tmp_path)
    [log] = tmp_path.glob("*.eval")
    verdicts = from_log(log)
    assert verdicts.turn_fields == per_turn
    assert set(verdicts.turn_counts.values()) == {3}  # starter conversations of 3 turns
    # every turn is judged, except in MindEval: its checkpoints, half-way (turn 1) and the end (turn 3)
    judged = {1, 3} if module == "test_mindeval" else {1, 2, 3}
    assert {(s, t) for s, t, _ in verdicts.turn_values} == {(s, t) for s in verdicts.turn_counts for t in judged}
    for field, metric in derived.items():
        assert metric in verdicts.derived_metric_fields[field], field


def test_cli_writes_per_turn_fields_with_their_metrics(app: typer.Typer, log: Path, tmp_path: Path) -> None:  # noqa: F811
    human = _human(tmp_path / "h.csv", _identical_rows("dcs"))
    out = tmp_path / "v.json"
    result = CliRunner().invoke(
        app, ["judge-check", "--log", str(log), "--human", str(human), "--json", str(out), "--bootstrap", "0"]
    )
    assert result.exit_code == 0, result.output
    assert "dcs (per turn)" in result.output
    [field] = json.loads(out.read_text())["fields"]
    assert field["unit"] == "turn" and "dcs_phase3" in field["metrics"]
