"""``trustmh align`` through typer: outputs, help, and exit 2 with one line on bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from trustmh.cli.align import register


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    # The command alone, as registered on the main app (main.py imports other slices).
    application = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    register(application)

    @application.callback()
    def _root() -> None:  # keep "align" a subcommand, as under `trustmh`
        pass

    return application


def _args(fixtures: Path, *extra: str) -> list[str]:
    return [
        "align",
        "--human",
        str(fixtures / "human.csv"),
        "--judge-ratings",
        f"a={fixtures / 'judge_a.csv'}",
        "--judge-ratings",
        f"b={fixtures / 'judge_b.csv'}",
        "--bootstrap",
        "100",
        *extra,
    ]


def test_help_has_example(app: typer.Typer) -> None:
    result = CliRunner().invoke(app, ["align", "--help"])
    assert result.exit_code == 0
    assert "Example" in result.output and "--judge" in result.output


def test_json_and_html(app: typer.Typer, fixtures: Path, tmp_path: Path) -> None:
    out, html = tmp_path / "out.json", tmp_path / "out.html"
    result = CliRunner().invoke(app, _args(fixtures, "--exclude", "a=gamma", "--json", str(out), "--html", str(html)))
    assert result.exit_code == 0, result.output
    payload = json.loads(out.read_text())
    assert payload["n_conversations"] == 6
    row = payload["rows"][0]
    for key in (
        "judge",
        "attribute",
        "level",
        "n",
        "human_mean",
        "judge_mean",
        "bias",
        "mse",
        "icc_c1",
        "icc_c1_ci",
        "icc_a1",
        "icc_a1_ci",
        "ci_width",
        "category",
        "pearson_r",
        "ccc",
        "ba_mean_diff",
        "ba_loa",
        "unparsed",
    ):
        assert key in row
    assert set(payload["krippendorff_alpha"]) >= {"Guidance", "CSS", "ARS"}
    page = html.read_text()
    assert "ICC(C,1)" in page and "Bland" in page and "Plotly" in page
    # Offline: plotly.js inlined, no script loaded from anywhere.
    assert not re.search(r"<script[^>]*\bsrc=", page)
    assert "plotly.js v" in page or "plotly.js" in page


def test_json_to_stdout_is_pure_json(app: typer.Typer, fixtures: Path) -> None:
    result = CliRunner().invoke(app, _args(fixtures, "--json", "-", "--level", "model"))
    assert result.exit_code == 0
    assert {r["level"] for r in json.loads(result.stdout)["rows"]} == {"model"}


@pytest.mark.parametrize(
    ("extra", "fragment"),
    [
        (["--judge-ratings", "broken"], "--judge-ratings 'broken': expected NAME=VALUE"),
        (["--judge-ratings", "a=x.csv"], "judge name 'a' given twice"),
        (["--exclude", "zzz=alpha"], "no judge named 'zzz'"),
        (["--exclude", "a"], "--exclude 'a': expected NAME=VALUE"),
        (["--level", "conversation"], "--level conversation"),
        (["--judge-ratings", "c=/nonexistent/c.csv"], "/nonexistent/c.csv: file not found"),
    ],
)
def test_bad_arguments_exit_2_and_write_nothing(
    app: typer.Typer, fixtures: Path, tmp_path: Path, extra: list[str], fragment: str
) -> None:
    out = tmp_path / "out.json"
    result = CliRunner().invoke(app, _args(fixtures, "--json", str(out), *extra))
    assert result.exit_code == 2
    assert fragment in result.output
    assert len([line for line in result.output.splitlines() if line.strip()]) == 1
    assert not out.exists() and not list(tmp_path.iterdir())


def test_partly_shared_conversations_are_compared_where_both_rated_with_a_note(
    app: typer.Typer, fixtures: Path, tmp_path: Path
) -> None:
    lines = (fixtures / "judge_b.csv").read_text().splitlines(keepends=True)
    (tmp_path / "short.csv").write_text("".join(lines[:-1]))  # the judge did not rate ConvID 106
    out = tmp_path / "o.json"
    result = CliRunner().invoke(
        app, _args(fixtures, "--judge-ratings", f"c={tmp_path / 'short.csv'}", "--json", str(out))
    )
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "note: judge c: compared on 4 response models x 5 conversations" in text
    assert "1 conversations of" in text and "not rated by this judge" in text
    (judge_c,) = [j for j in json.loads(out.read_text())["judges"] if j["name"] == "c"]
    assert judge_c["coverage"]["human_only_conversations"] == 1 and judge_c["coverage"]["conversations"] == 5


def test_files_that_share_no_conversation_exit_2(app: typer.Typer, fixtures: Path, tmp_path: Path) -> None:
    lines = (fixtures / "judge_b.csv").read_text().splitlines(keepends=True)
    renumbered = [lines[0]] + [f"9{line}" for line in lines[1:]]  # ConvIDs 9101, 9102, ...
    (tmp_path / "other.csv").write_text("".join(renumbered))
    out = tmp_path / "o.json"
    result = CliRunner().invoke(
        app, _args(fixtures, "--judge-ratings", f"c={tmp_path / 'other.csv'}", "--json", str(out))
    )
    assert result.exit_code == 2 and "other.csv:row 2" in result.output and "ConvID '9101'" in result.output
    assert not out.exists()


def test_nothing_rated_by_both_sides_exits_4_and_writes_nothing(
    app: typer.Typer, fixtures: Path, tmp_path: Path
) -> None:
    """Issue 30: a judge file whose every cell is unusable gave n = 0 everywhere, empty charts and
    exit 0; now exit code 4 and nothing written."""
    lines = (fixtures / "judge_b.csv").read_text().splitlines()
    header = lines[0]
    columns = len(header.split(","))
    blank = [header] + [f"{line.split(',')[0]},some context" + "," * (columns - 2) for line in lines[1:]]
    (tmp_path / "blank.csv").write_text("\n".join(blank) + "\n")
    out, html = tmp_path / "o.json", tmp_path / "o.html"
    args = ["align", "--human", str(fixtures / "human.csv"), "--judge-ratings", f"c={tmp_path / 'blank.csv'}"]
    result = CliRunner().invoke(app, [*args, "--json", str(out), "--html", str(html), "--bootstrap", "0"])
    assert result.exit_code == 4, result.output
    assert "nothing to compare" in result.output and "n = 0" in result.output
    assert not out.exists() and not html.exists()


def test_the_former_judge_flag_still_works_with_a_deprecation_line(app: typer.Typer, fixtures: Path) -> None:
    """``--judge`` names a judge model in every other command; align's file option is
    ``--judge-ratings``, and its former name is read for a release with a note on stderr."""
    args = ["align", "--human", str(fixtures / "human.csv"), "--bootstrap", "0", "--json", "-"]
    new = CliRunner().invoke(app, [*args, "--judge-ratings", f"a={fixtures / 'judge_a.csv'}"])
    old = CliRunner().invoke(app, [*args, "--judge", f"a={fixtures / 'judge_a.csv'}"])
    assert new.exit_code == old.exit_code == 0, old.output
    assert "deprecated" in old.stderr and "--judge-ratings" in old.stderr and "deprecated" not in new.stderr
    assert json.loads(new.stdout) == json.loads(old.stdout)
    missing = CliRunner().invoke(app, ["align", "--human", str(fixtures / "human.csv")])
    assert missing.exit_code == 2 and "--judge-ratings NAME=FILE is required" in missing.output
