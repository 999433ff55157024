"""Human labels cannot poison an agreement or a PPI correction: judge-check holds them to the judge's
own fields as its rubric declares them (recorded in the log with each judgement, no ``--scale``
needed), and refuses a text label on a field the judge rates with numbers. ``--qualify`` holds a
qualification set's labels to the rubric's scale. Each is one line naming file, line and field.

Before, ``harmfulness`` 50 on the 1-5 rubric was averaged into the corrected mean, and a field
labelled in words was read as a nominal field, both with exit 0."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.doubles.openai_double import OpenAIDouble
from tests.judgecheck.judged_run import judged_safety_log
from trustmh.cli.main import app


@pytest.fixture(scope="module")
def run_log(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    return judged_safety_log(tmp_path_factory.mktemp("run"))


def _harmfulness(index: int) -> int:
    """The scripted judge's harmfulness of sample ``index`` (tests/pillars/safety/test_tasks.py)."""
    return 1 if index < 12 else 2 if index < 18 else 4


def _check(log: Path, human: Path, *extra: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        app, ["judge-check", "--log", str(log), "--human", str(human), "--bootstrap", "0", *extra]
    )
    return result.exit_code, result.output


def _human(path: Path, rows: list[str]) -> Path:
    path.write_text("\n".join(["sample_id,field,rater,score", *rows]) + "\n", encoding="utf-8")
    return path


def test_a_label_off_the_rubric_scale_cannot_move_the_correction(
    run_log: tuple[Path, list[str]], tmp_path: Path
) -> None:
    log, ids = run_log
    rows = [f"{ids[i]},harmfulness,ann,{_harmfulness(i)}" for i in range(0, 23, 2)]
    out = tmp_path / "fine.json"
    code, output = _check(log, _human(tmp_path / "fine.csv", rows), "--json", str(out))
    assert code == 0, output  # the control: labels on the scale give a correction
    (field,) = [f for f in json.loads(out.read_text())["fields"] if f["field"] == "harmfulness"]
    assert field["correction"]["n_labelled"] == len(rows)

    rows[3] = rows[3].rsplit(",", 1)[0] + ",50"
    code, output = _check(log, _human(tmp_path / "human.csv", rows))
    assert code == 2 and output.count("\n") <= 1, output
    assert "human.csv:line 5, column 'score': field 'harmfulness' is declared 1-5 (the judge's rubric), found 50" in (
        " ".join(output.split())
    )


def test_a_text_label_on_a_numeric_rubric_field_is_refused(run_log: tuple[Path, list[str]], tmp_path: Path) -> None:
    log, ids = run_log
    rows = [f"{ids[i]},harmfulness,ann,{'severe' if i > 12 else 'mild'}" for i in range(0, 23, 2)]
    code, output = _check(log, _human(tmp_path / "human.csv", rows))
    assert code == 2, output
    assert "line 2, column 'score': field 'harmfulness' is declared 1-5 (the judge's rubric), found 'mild'" in (
        " ".join(output.split())
    )


def test_a_verdict_label_outside_its_choices_is_refused(run_log: tuple[Path, list[str]], tmp_path: Path) -> None:
    log, ids = run_log
    rows = [f"{ids[0]},verdict,ann,refused", f"{ids[1]},verdict,ann,maybe"]
    code, output = _check(log, _human(tmp_path / "human.csv", rows))
    assert code == 2, output
    flat = " ".join(output.split())
    assert "human.csv:line 3, column 'score': field 'verdict' is declared one of refused," in flat
    assert "(the judge's rubric), found 'maybe'" in flat


def test_a_text_label_on_a_field_the_judge_rates_with_numbers_is_refused(
    run_log: tuple[Path, list[str]], tmp_path: Path
) -> None:
    """``judge_refused`` is a score field (0/1) the scorer derives: no rubric scale, numbers only."""
    log, ids = run_log
    rows = [f"{ids[i]},judge_refused,ann,{'yes' if i < 12 else 'no'}" for i in range(23)]
    code, output = _check(log, _human(tmp_path / "human.csv", rows))
    assert code == 2, output
    assert (
        "line 2, column 'score': field 'judge_refused' is rated with numbers by the judge, found the label 'yes'"
        in (" ".join(output.split()))
    )


def test_qualify_refuses_a_label_off_the_rubric_scale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-qualify")
    items = [
        {"id": f"i{n}", "context": f"c{n}", "response": f"r{n}", "labels": {"Empathy": 1 + n % 5, "Safety": 5}}
        for n in range(6)
    ]
    items[4]["labels"]["Empathy"] = 7
    own = tmp_path / "own.jsonl"
    own.write_text("\n".join(json.dumps(i) for i in items) + "\n", encoding="utf-8")
    args = ["judge-check", "--qualify", "--qualification-set", str(own), "--no-progress"]
    with OpenAIDouble() as server:
        result = CliRunner().invoke(
            app, [*args, "--judge", "openai/j", "--base-url", server.base_url, "--cache", str(tmp_path / "c.sqlite")]
        )
        asked = sum(server.state.models.values())
    flat = " ".join(result.output.split())
    assert result.exit_code == 2 and asked == 0, result.output  # refused before any judge call
    assert "own.jsonl:line 5, label 'Empathy': field 'Empathy' is declared 1-5 (the judge's rubric), found 7" in flat
