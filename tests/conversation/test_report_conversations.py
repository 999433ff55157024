"""The report's conversation view: a per-turn trajectory per judged score, transcripts coloured by
verdict and reachable from the chart, nothing of the transcripts in a redacted report."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from inspect_ai import eval
from inspect_ai.model import get_model

from tests.conversation.conversation_models import fixed_judge, tagging_target
from tests.conversation.test_psychosis_bench import SHORT, _verdicts
from trustmh.pillars.crisis.psychosis_bench import crisis_psychosis_bench
from trustmh.report import build_report


@pytest.fixture(scope="module")
def psychosis_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    log_dir = tmp_path_factory.mktemp("conv-report")
    task = crisis_psychosis_bench(source="starter")
    tags = {}
    for sample in task.dataset:
        for turn, text in enumerate(sample.metadata["user_turns"], start=1):
            tags[text] = f"<<{SHORT[sample.id]}-{turn}>> <script>alert(1)</script>"
    eval(
        task,
        model=tagging_target("report-target", tags),
        model_roles={"judge": get_model(fixed_judge("report-judge", _verdicts()))},
        log_dir=str(log_dir),
        display="none",
    )
    return log_dir


def _figures(page: str) -> dict:
    payload = re.search(r'<script type="application/json" id="figures">(.*?)</script>', page, re.DOTALL)
    assert payload
    return json.loads(payload.group(1))["figures"]


def test_trajectory_per_score_with_drill_down(psychosis_logs: Path, tmp_path: Path) -> None:
    page = build_report([psychosis_logs], tmp_path / "report.html").read_text(encoding="utf-8")
    figures = _figures(page)
    dcs = next(f for f in figures.values() if f["title"].startswith("crisis_psychosis_bench: dcs by turn"))
    (line,) = dcs["data"]
    assert line["x"] == [4, 5, 6, 7, 8]
    # Means by turn over the two conversations (A: 0,1,2,2,2; B: 1,1,0,unparsed,2).
    assert line["y"] == pytest.approx([0.5, 1.0, 1.0, 2.0, 2.0])
    target = line["customdata"][0]
    assert target.startswith("conv-") and f"id='{target}'" in page
    # Transcripts: every turn, coloured, with its verdicts; the answer text is escaped.
    assert "dcs=2" in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<script>alert(1)</script>" not in page
    assert "#f8d7d3" in page and "#d9efd6" in page  # a red (validating) and a green turn


def test_redacted_report_keeps_trajectories_not_transcripts(psychosis_logs: Path, tmp_path: Path) -> None:
    page = build_report([psychosis_logs], tmp_path / "report.html", redact=True).read_text(encoding="utf-8")
    assert any("dcs by turn" in f["title"] for f in _figures(page).values())
    assert "alert(1)" not in page and "class='conversation'" not in page
