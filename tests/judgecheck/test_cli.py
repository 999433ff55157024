"""``trustmh judge-check`` end to end: a tiny judged run (replayed answers, scripted judge),
a human file, the console table, the JSON file, and one line with exit 2 on bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from tests.judgecheck.judged_run import human_file, judged_safety_log
from trustmh.cli.judgecheck import register


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    application = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    register(application)

    @application.callback()
    def _root() -> None:  # keep "judge-check" a subcommand, as under `trustmh`
        pass

    return application


@pytest.fixture(scope="module")
def run_log(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    return judged_safety_log(tmp_path_factory.mktemp("run"))


def test_help_has_an_example(app: typer.Typer) -> None:
    result = CliRunner().invoke(app, ["judge-check", "--help"])
    assert result.exit_code == 0 and "Example" in result.output and "--human" in result.output


def test_end_to_end_on_a_judged_log(app: typer.Typer, run_log: tuple[Path, list[str]], tmp_path: Path) -> None:
    log, ids = run_log
    human = human_file(tmp_path / "human.csv", ids)
    out = tmp_path / "validation.json"
    result = CliRunner().invoke(
        app, ["judge-check", "--log", str(log), "--human", str(human), "--json", str(out), "--bootstrap", "200"]
    )
    assert result.exit_code == 0, result.output
    assert "judge_refused" in result.output and "fleiss_kappa" in result.output and f"wrote {out}" in result.output
    payload = json.loads(out.read_text())
    assert payload["format"] == "trustmh-judge-check/1" and payload["task"] == "safety_jailbreakmh"
    assert payload["judge"].startswith("scripted/")
    rows = {row["field"]: row for row in payload["fields"]}
    refused = rows["judge_refused"]
    assert refused["kind"] == "binary" and refused["n"] == 23 and refused["raters"] == ["a", "b"]
    assert "rta_judge" in refused["metrics"]  # the log says which metrics read the field
    # Humans: a says 11 of 23 refused, b 12; the judge 12 -> bias = 12/23 - 11.5/23.
    assert refused["bias"] == pytest.approx(0.5 / 23)
    # Majority of (a, b): item 0 is a tie and left out -> 22 items, all agreeing with the judge.
    assert refused["majority_agreement"] == 1.0
    verdict = rows["verdict"]  # the judge's own verdict, kept in the score metadata
    assert verdict["kind"] == "nominal" and verdict["agreement"] == "cohen_kappa" and verdict["value"] == 1.0
    # no answer: the scorer never asked the judge -> counted as not judged (not as a verdict)
    assert verdict["n"] == 23 and (verdict["judge_unparsed"], verdict["not_judged"]) == (0, 1)
    assert verdict["labels"] == ["complied", "partially complied", "refused"]


def test_json_to_stdout_is_pure_json(app: typer.Typer, run_log: tuple[Path, list[str]], tmp_path: Path) -> None:
    log, ids = run_log
    human = human_file(tmp_path / "human.csv", ids)
    result = CliRunner().invoke(
        app, ["judge-check", "--log", str(log), "--human", str(human), "--json", "-", "--bootstrap", "0"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["bootstrap"]["replicates"] == 0


BAD_HUMAN = [
    ("sample_id,field,rater\nx,judge_refused,a\n", r"human.csv:line 1: missing column 'score'"),
    ("sample_id,field,rater,score\n{id},judge_refused,a,\n", r"human.csv:line 2, column 'score': expected a number"),
    ("sample_id,field,rater,score\n{id},judge_refused,,1\n", r"human.csv:line 2, column 'rater'"),
    ("sample_id,field,rater,score\n{id},judge_refused,a,1\n{id},judge_refused,a,0\n", r"line 3: rater 'a' rated"),
    ("sample_id,field,rater,score\n{id},mood,a,1\n", r"human.csv:line 2: field 'mood' is not among the judge's"),
    ("sample_id,field,rater,score\nnope,judge_refused,a,1\n", r"none of the samples rated on 'judge_refused'"),
    ("sample_id,field,rater,score\n{id},judge_refused,a,nan\n", r"column 'score': expected a finite number"),
]


@pytest.mark.parametrize("text, message", BAD_HUMAN)
def test_bad_human_file_is_one_line_exit_2(
    app: typer.Typer, run_log: tuple[Path, list[str]], tmp_path: Path, text: str, message: str
) -> None:
    log, ids = run_log
    human = tmp_path / "human.csv"
    human.write_text(text.replace("{id}", ids[0]), encoding="utf-8")
    out = tmp_path / "out.json"
    result = CliRunner().invoke(app, ["judge-check", "--log", str(log), "--human", str(human), "--json", str(out)])
    assert result.exit_code == 2, result.output
    assert re.search(message, result.output), result.output
    assert len([line for line in result.output.splitlines() if line.strip()]) == 1
    assert not out.exists()


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--binary", "judge_refused"], r"--binary: 'judge_refused': expected FIELD=LABEL"),
        (["--kind", "judge_refused=ordinal"], r"--kind: 'judge_refused=ordinal': expected FIELD=KIND"),
        (["--kind", "mood=scale"], r"field 'mood' is not in"),
        (["--detector", "refusal"], r"give exactly one of --log"),
        (["--bootstrap", "-1"], r"--bootstrap: -1 bootstrap replicates"),
    ],
)
def test_bad_options_are_one_line_exit_2(
    app: typer.Typer, run_log: tuple[Path, list[str]], tmp_path: Path, extra: list[str], message: str
) -> None:
    log, ids = run_log
    human = human_file(tmp_path / "human.csv", ids)
    result = CliRunner().invoke(app, ["judge-check", "--log", str(log), "--human", str(human), *extra])
    assert result.exit_code == 2, result.output
    assert re.search(message, result.output), result.output


def test_a_log_without_judge_or_a_broken_log_is_one_line(app: typer.Typer, tmp_path: Path) -> None:
    broken = tmp_path / "broken.eval"
    broken.write_bytes(b"not a zip")
    human = tmp_path / "human.csv"
    human.write_text("sample_id,field,rater,score\na,b,c,1\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["judge-check", "--log", str(broken), "--human", str(human)])
    assert result.exit_code == 2 and "broken.eval: cannot read this inspect log" in result.output


def test_unusable_judge_replies_are_counted_unparsed(tmp_path: Path) -> None:
    from tests.fakes import replay_eval, scripted_model
    from tests.pillars.safety.test_tasks import PARTIAL_MARK, _replay, answer, safety_judge
    from trustmh.judgecheck import check
    from trustmh.judgecheck.ratings import read_ratings
    from trustmh.judgecheck.verdicts import from_log
    from trustmh.pillars.safety.tasks import safety_jailbreakmh

    def judge(prompt: str) -> str:  # no verdict for the 6 partial answers, nor when asked again
        unusable = PARTIAL_MARK in prompt or "could not be used" in prompt
        return "I would rather not say." if unusable else safety_judge(prompt)

    task = safety_jailbreakmh(source="starter")
    log = replay_eval(task, _replay(tmp_path, task, answer), tmp_path, scripted_model(judge))
    human = human_file(tmp_path / "human.csv", [str(s.id) for s in task.dataset])
    rows = {r.field: r for r in check(read_ratings(human), str(human), from_log(Path(log.location)), n_boot=0).fields}
    assert (rows["verdict"].n, rows["verdict"].judge_unparsed, rows["verdict"].not_judged) == (17, 6, 1)
    assert (rows["judge_refused"].n, rows["judge_refused"].judge_unparsed) == (17, 6)


def test_a_rate_with_few_labelled_positives_prints_the_warning(
    app: typer.Typer, run_log: tuple[Path, list[str]], tmp_path: Path
) -> None:
    log, ids = run_log
    human = tmp_path / "human.csv"
    rows = [f"{sample},judge_refused,a,{1 if i < 3 else 0}" for i, sample in enumerate(ids[:23])]
    human.write_text("sample_id,field,rater,score\n" + "\n".join(rows) + "\n", encoding="utf-8")
    out = tmp_path / "validation.json"
    result = CliRunner().invoke(app, ["judge-check", "--log", str(log), "--human", str(human), "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "judge_refused: too few labelled items with the rarer answer for a reliable interval: 3" in " ".join(
        result.output.split()
    )
    refused = {row["field"]: row for row in json.loads(out.read_text())["fields"]}["judge_refused"]
    assert refused["correction"]["interval"] == "normal" and "warning" in refused["correction"]
