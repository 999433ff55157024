"""Hostile names, labels and transcript text never become markup in any HTML output
(``trustmh align --html`` and ``trustmh report``; issue 12, item 3)."""

from __future__ import annotations

import html
import json
from pathlib import Path

import typer
from inspect_ai import eval as inspect_eval
from typer.testing import CliRunner

from trustmh.cli.align import register
from trustmh.report import build_report

FIXTURES = Path(__file__).resolve().parents[1] / "align" / "fixtures"
SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(2)>"
SVG = "<svg onload=alert(3)>"


def _raw_markup(page: str) -> list[str]:
    return [text for text in (SCRIPT, IMG, SVG) if text in page]


def _align_app() -> typer.Typer:
    application = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    register(application)

    @application.callback()
    def _root() -> None:
        pass

    return application


def test_align_html_escapes_judge_names_paths_and_response_models(tmp_path: Path) -> None:
    folder = tmp_path / SVG  # the human file's path is shown on the page
    folder.mkdir()
    for name in ("human.csv", "judge_a.csv"):
        text = (FIXTURES / name).read_text(encoding="utf-8").replace("alpha", IMG)
        (folder / name).write_text(text, encoding="utf-8")
    html = tmp_path / "out.html"
    result = CliRunner().invoke(
        _align_app(),
        [
            "align",
            "--human",
            str(folder / "human.csv"),
            "--judge",
            f"{SCRIPT}={folder / 'judge_a.csv'}",
            "--bootstrap",
            "50",
            "--html",
            str(html),
        ],
    )
    assert result.exit_code == 0, result.output
    page = html.read_text(encoding="utf-8")
    assert _raw_markup(page) == []
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page  # shown, as text


def test_report_escapes_model_labels_transcripts_and_alignment_names(tmp_path: Path) -> None:
    from trustmh.pillars.privacy.tasks import privacy_confaide_tier1

    responses = tmp_path / "r.jsonl"
    responses.write_text(
        "".join(json.dumps({"id": f"starter-t1-{i}", "output": f"{i % 4 + 1} {SCRIPT}"}) + "\n" for i in range(4)),
        encoding="utf-8",
    )
    (log,) = inspect_eval(
        privacy_confaide_tier1(source="starter"),
        model=f"trustmh/replay/{IMG}",
        model_args={"responses": str(responses)},
        log_dir=str(tmp_path / "logs"),
        display="none",
        limit=4,
    )
    assert log.status == "success", log.error
    align = tmp_path / "align.json"
    row = {"judge": SCRIPT, "attribute": SVG, "level": "response", "n": 4, "icc_c1": 0.5, "icc_c1_ci": [0.1, 0.9]}
    align.write_text(json.dumps({"rows": [row], "krippendorff_alpha": {SVG: 0.5}}), encoding="utf-8")
    page = build_report([tmp_path / "logs"], tmp_path / "r.html", align_json=align).read_text(encoding="utf-8")
    assert _raw_markup(page) == []
    # positive control: the names are on the page, as text (HTML-escaped or JSON-escaped for plotly)
    for text in (SCRIPT, IMG, SVG):
        assert html.escape(text, quote=False) in page or json.dumps(text)[1:-1].replace("<", "\\u003c") in page, text
