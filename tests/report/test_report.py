"""The report from real and synthetic logs: selection, ranking, exports, redaction, errors, CLI."""

from __future__ import annotations

import csv
import html
import json
import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from tests.report.report_helpers import MARKUP, SECRET_OUTPUT, Logs, write_alignment
from trustmh.cli import report as report_cli
from trustmh.core.errors import UserError
from trustmh.report import TIDY_COLUMNS, build_report, collect
from trustmh.report.headline import pillar_scores
from trustmh.report.ranking import leaderboards


def _figures(page: str) -> dict:
    found = re.search(r'<script type="application/json" id="figures">(.*?)</script>', page, re.S)
    assert found
    return json.loads(found.group(1))["figures"]


def _radar_trace(figures: dict, model: str) -> dict:
    radar = next(f for f in figures.values() if f["title"].startswith("Pillar scores (0 = worst"))
    return next(t for t in radar["data"] if t.get("name", "").endswith(model))


def _spoke(trace: dict, pillar: str) -> int:
    """Index of a pillar's point in a radar trace (its hover text names the pillar)."""
    return next(i for i, h in enumerate(trace["hovertext"]) if f"<br>{pillar}" in h)


def test_latest_successful_log_per_task_and_model(logs: Logs) -> None:
    collection = collect([logs.root])
    keys = [(r.task, r.model) for r in collection.results]
    assert len(keys) == len(set(keys))
    crisis_b = next(r for r in collection.results if r.task == "crisis_classification" and r.model.endswith("model-b"))
    assert next(row.value for row in crisis_b.rows if row.metric == "macro_f1") == pytest.approx(
        0.5
    )  # not the 2020 log
    crisis_a = next(r for r in collection.results if r.task == "crisis_classification" and r.model.endswith("model-a"))
    assert next(row.value for row in crisis_a.rows if row.metric == "macro_f1") == pytest.approx(
        0.4
    )  # not the failed log
    assert any("status error" in s for s in collection.skipped)
    assert any("superseded" in s for s in collection.skipped)


def test_ranking_is_mean_rank_over_present_pillars(logs: Logs) -> None:
    rows = [r for res in collect([logs.synthetic]).results for r in res.rows]
    scores = pillar_scores(rows)
    assert ("benchmark", "trustmh/replay/model-a", "sycophancy") not in scores  # missing, not zero
    (board,) = leaderboards(scores)
    ranked = {r.model: r for r in board.rows}
    a, b = ranked["trustmh/replay/model-a"], ranked["trustmh/replay/model-b"]
    # b is separated from a (CIs apart) on crisis, safety and strict ethics accuracy; on
    # fairness and robustness their CIs overlap, so they share rank 1.
    assert b.pillar_ranks == {"crisis": 1, "safety": 1, "fairness": 1, "robustness": 1, "ethics": 1, "sycophancy": 1}
    assert a.pillar_ranks == {"crisis": 2, "safety": 2, "fairness": 1, "robustness": 1, "ethics": 2}
    assert a.mean_rank == pytest.approx(8 / 5) and (b.tie_group, a.tie_group) == (1, 2)


def test_report_content(logs: Logs, tmp_path: Path) -> None:
    out = build_report([logs.root], tmp_path / "r.html")
    page = out.read_text(encoding="utf-8")
    assert (
        "http://" not in page.split("<script>")[0]
        and "<script src" not in page
        and '<link rel="stylesheet"' not in page
    )
    assert "Not comparable with the published benchmark" in page
    assert "mean of its ranks over the pillars it has" in page
    assert "Benchmark leaderboard" in page and "Starter-suite leaderboard" in page
    assert 'id="pillar-dialogue"' in page
    assert "missing" in page and SECRET_OUTPUT in page  # sample excerpts are there unredacted
    figures = _figures(page)
    titles = " | ".join(f["title"] for f in figures.values())
    for expected in (
        "Pillar scores",
        "rta_keyword by method",
        "score by perturbation",
        "refusal_rate_range by attribute",
        "APA principle scores",
    ):
        assert expected in titles, expected
    # matrices are tables: confusion counts with their unparsed column, the jailbreak grid
    assert "confusion (rows = gold" in page and "jailbreak method × objective" in page
    a = _radar_trace(figures, "model-a")
    assert a["x"][_spoke(a, "sycophancy")] is None
    # Issue 30: the embedded model ran ConfAIde only, so privacy is not scored, with r beside it;
    # the keyword RtA is shown beside the judged RtA, marked as an offline indicator.
    assert "<strong>trustmh/smollm2</strong> · privacy: not scored — needs privacy_psyleak" in page
    assert "beside, not ranked: refuse-to-answer rate on jailbreaks (keyword detector; offline indicator)" in page
    assert "(would use:" not in page


def test_hover_gives_n_and_ci_and_sample_text_is_escaped(logs: Logs, tmp_path: Path) -> None:
    page = build_report([logs.root], tmp_path / "r.html").read_text(encoding="utf-8")
    assert MARKUP not in page and html.escape(MARKUP) in page
    figures = _figures(page)
    b = _radar_trace(figures, "model-b")
    crisis = b["hovertext"][_spoke(b, "crisis")]
    assert "n=20" in crisis and "[0.470, 0.530]" in crisis
    assert not any("<br>privacy" in h for h in b["hovertext"])  # starter results are on their own leaderboard
    dots = next(f for f in figures.values() if f["title"].startswith("Pillar scores with 95% CIs"))
    assert all("STARTER" in h for t in dots["data"] for h in t["hovertext"])
    bars = [f for f in _figures(page).values() if f["data"][0]["type"] == "bar"]
    assert bars and all(
        "n = " in h and "CI" in h for f in bars for t in f["data"] for h in t["hovertext"] if "missing" not in h
    )


def test_confusion_is_row_normalised(logs: Logs) -> None:
    from trustmh.report.matrices import confusion_tables

    crisis = next(r for r in collect([logs.synthetic]).results if r.task == "crisis_classification")
    [table] = confusion_tables(crisis)
    for row in table["rows"]:
        assert sum(float(c["text"]) for c in row["cells"]) == pytest.approx(1.0, abs=0.02)


def test_redacted_report_has_no_sample_text(logs: Logs, tmp_path: Path) -> None:
    page = build_report([logs.root], tmp_path / "r.html", redact=True).read_text(encoding="utf-8")
    assert "REDACTED" in page
    for text in logs.sample_texts:
        assert text not in page and html.escape(text) not in page, text
    # aggregates still there, including the per-sample safety grid
    assert "method × objective" in page and "pearson_r" in page


def test_exports(logs: Logs, tmp_path: Path) -> None:
    build_report([logs.real], tmp_path / "r.html", csv_path=tmp_path / "t.csv", json_path=tmp_path / "t.json")
    with (tmp_path / "t.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert tuple(rows[0]) == TIDY_COLUMNS
    assert {r["model"] for r in rows} == {"trustmh/replay/model-a", "trustmh/replay/model-b", "trustmh/smollm2"}
    assert {r["source"] for r in rows} == {"starter"}
    document = json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))
    records = document["results"]
    assert len(records) == len(rows) and set(records[0]) == set(TIDY_COLUMNS)
    # PsyLeak's control error counts an unparsed answer as an error: its strict twin is a column
    control = [r for r in records if r["metric"] == "control_error"]
    assert control and all(r["strict_n"] == r["n"] + r["unparsed"] and r["strict_ci_low"] is not None for r in control)
    assert all(r["strict"] is None and r["strict_n"] is None for r in records if r["metric"] == "pearson_r")
    assert all(r["strict_n"] == "" for r in rows if r["metric"] == "pearson_r")
    (starter,) = document["rankings"]  # only starter logs here: one leaderboard
    assert starter["source"] == "starter" and starter["pillars"] == ["privacy"]
    assert {r["model"] for r in starter["rows"]} == {"trustmh/replay/model-a", "trustmh/replay/model-b"}
    assert all(set(r) == {"model", "mean_rank", "tie_group", "pillar_ranks"} for r in starter["rows"])
    # the embedded model ran ConfAIde only: privacy is not scored (never as zero), whatever its r
    assert "trustmh/smollm2" not in {r["model"] for r in starter["rows"]}
    assert {"model": "trustmh/smollm2", "pillar": "privacy", "needs": "needs privacy_psyleak"} in starter["not_scored"]
    assert starter["headlines"]["privacy"] == ["free_response_leak_rate"]
    beside = [b for b in starter["beside"] if b["model"] == "trustmh/replay/model-a"]
    assert [(b["metric"], b["ranked"]) for b in beside] == [("pearson_r", False)]


def test_alignment_section(logs: Logs, tmp_path: Path) -> None:
    align = write_alignment(tmp_path / "align.json")
    page = build_report([logs.real], tmp_path / "r.html", align_json=align).read_text(encoding="utf-8")
    titles = " | ".join(f["title"] for f in _figures(page).values())
    assert "ICC(A,1)" in titles and "Judge bias" in titles and "Bland–Altman" in titles
    assert "Krippendorff" in page


@pytest.mark.parametrize(
    "make",
    [
        lambda p: p / "nope",
        lambda p: p,  # an empty directory: no logs
        lambda p: (p / "x.txt").write_text("hi") and p / "x.txt",
        lambda p: (p / "bad.eval").write_bytes(b"not a zip") and p,
    ],
)
def test_bad_input_is_one_line_user_error_and_writes_nothing(make, tmp_path: Path) -> None:
    target = make(tmp_path)
    out = tmp_path / "out" / "r.html"
    with pytest.raises(UserError) as error:
        build_report([target], out)
    assert "\n" not in str(error.value)
    assert not out.exists()


def test_alignment_with_undefined_values(logs: Logs, tmp_path: Path) -> None:
    """`trustmh align --json` writes NaN as null: such cells are gaps, not crashes."""
    align = tmp_path / "align.json"
    row = {
        "judge": "j",
        "attribute": "empathy",
        "level": "response",
        "n": 3,
        "icc_c1": None,
        "icc_c1_ci": [None, None],
        "icc_a1": None,
        "icc_a1_ci": [None, None],
        "ci_width": None,
        "category": None,
        "bias": 0.2,
        "bias_ci": [None, 0.5],
        "ba_mean_diff": None,
        "ba_loa": [None, None],
    }
    align.write_text(
        json.dumps(
            {
                "rows": [row, row | {"attribute": "safety", "icc_a1": 0.4, "category": "PR"}],
                "krippendorff_alpha": {"empathy": None},
            }
        ),
        encoding="utf-8",
    )
    page = build_report([logs.real], tmp_path / "r.html", align_json=align).read_text(encoding="utf-8")
    titles = [f["title"] for f in _figures(page).values()]
    assert any("ICC(A,1)" in t for t in titles) and any("Judge bias" in t for t in titles)
    assert not any("Bland" in t for t in titles)  # no defined mean difference: chart left out


def test_unwritable_output_is_a_user_error(logs: Logs, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    # a file where a directory should be: named as such before anything is rendered (issue 12 item 9)
    with pytest.raises(UserError, match="r.html: a parent in the path is not a folder"):
        build_report([logs.real], blocker / "r.html")


def test_bad_alignment_file(logs: Logs, tmp_path: Path) -> None:
    bad = tmp_path / "a.json"
    bad.write_text('{"rows": 3}', encoding="utf-8")
    with pytest.raises(UserError, match="trustmh align --json"):
        build_report([logs.real], tmp_path / "r.html", align_json=bad)
    assert not (tmp_path / "r.html").exists()


def _app() -> typer.Typer:
    app = typer.Typer()
    report_cli.register(app)

    @app.callback()
    def _root() -> None:  # keeps "report" a subcommand, as under the real app
        pass

    return app


def test_cli(logs: Logs, tmp_path: Path) -> None:
    runner = CliRunner()
    help_text = runner.invoke(_app(), ["report", "--help"]).output
    assert "Example: trustmh report" in help_text
    out = tmp_path / "r.html"
    result = runner.invoke(
        _app(), ["report", str(logs.real), "-o", str(out), "--json", str(tmp_path / "t.json"), "--redact"]
    )
    assert result.exit_code == 0, result.output
    assert out.exists() and (tmp_path / "t.json").exists() and str(out) in result.output
    bad = runner.invoke(_app(), ["report", str(tmp_path / "missing"), "-o", str(tmp_path / "x.html")])
    assert bad.exit_code == 2 and "no such log directory" in bad.output and not (tmp_path / "x.html").exists()


def test_heatmap_category_comes_from_the_ci_of_the_icc_it_prints(tmp_path: Path) -> None:
    from trustmh.align.figures import icc_heatmap
    from trustmh.report.alignment import load_alignment

    alignment = load_alignment(write_alignment(tmp_path / "align.json"))
    heat = icc_heatmap(alignment.result, "response", "icc_a1").data[0]
    # ICC(A,1) CIs are [0.5, 0.85] (width 0.35 <= 0.355: GR) whatever the file's ICC(C,1) category says
    # labelled by what it grades (issue 30: "0.83 PR" read as if the ICC's value were graded)
    assert {cell.split("<br>")[1] for line in heat.text for cell in line} == {"CI width GR"}
    assert all("95% CI [0.500, 0.850]" in h for line in heat.hovertext for h in line)
    assert all("[" not in cell for line in heat.text for cell in line)  # the CI is on hover, not in the cell


def test_same_item_side_by_side_across_models(logs: Logs, tmp_path: Path) -> None:
    page = build_report([logs.real], tmp_path / "r.html").read_text(encoding="utf-8")
    block = page.split('id="compare-privacy-confaide-tier1"')[1].split("</details>")[0]
    assert "starter-t1-0" in block
    for model in ("trustmh/replay/model-a", "trustmh/replay/model-b", "trustmh/smollm2"):
        assert model in block
    assert "not run" in block  # the embedded model answered only the first 2 items
    redacted = build_report([logs.real], tmp_path / "p.html", redact=True).read_text(encoding="utf-8")
    assert 'id="compare-' not in redacted


def test_metrics_no_model_scored_collapse_into_one_line_per_task() -> None:
    from trustmh.report.log_result import LogResult
    from trustmh.report.render import _metric_table
    from trustmh.scoring.results import MetricRow

    def row(model: str, metric: str, value: float | None, unparsed: int = 0) -> MetricRow:
        return MetricRow("t", "ethics", model, metric, value, None, None, 0 if value is None else 9, unparsed, "", None)

    results = [
        LogResult(
            "a.eval",
            "t",
            m,
            "ethics",
            "",
            "",
            "",
            [row(m, "accuracy", 0.5), row(m, "sc1", None), row(m, "sc2", None, unparsed=u)],
        )
        for m, u in (("a", 0), ("b", 3))
    ]
    table = _metric_table(results)
    assert [r["metric"] for r in table["rows"]] == ["accuracy", "sc2"]  # sc2 had unparsed judge replies: kept
    assert table["unscored"] == {"t": ["sc1"]}
