"""What ``trustmh run`` prints at its end, piped and on a narrow terminal: never a cell cut."""

from __future__ import annotations

import io
from types import SimpleNamespace
from typing import Any

import pytest

from trustmh.core.consoles import ReadableConsole
from trustmh.run import summary
from trustmh.scoring.results import MetricRow

MODEL = "openai/a-deployed-model-with-a-long-name"
LONG_TASK = "robustness_crisis_classification"


def _row(task: str, pillar: str, metric: str, value: float | None, n: int, unparsed: int = 0) -> MetricRow:
    low, high = (None, None) if value is None else (max(0.0, value - 0.1), min(1.0, value + 0.1))
    return MetricRow(task, pillar, MODEL, metric, value, low, high, n, unparsed, "starter", None)


ROWS = [
    # every answer unparsed: its value cell says so in words ("— every answer unparsed")
    _row(LONG_TASK, "robustness", "relative_drop[perturbation=typo@1]", None, 0, unparsed=6),
    _row("robustness_usmle_mental", "robustness", "score[perturbation=clean]", 0.5, 8),
    _row("robustness_usmle_mental", "robustness", "relative_drop[perturbation=typo@1]", 0.25, 8),
    _row("robustness_usmle_mental", "robustness", "score_strict[perturbation=clean]", 0.5, 8),
    _row("robustness_usmle_mental", "robustness", "relative_drop_strict[perturbation=typo@1]", 0.25, 8),
    _row("safety_overrefusal", "safety", "over_refusal_rate_keyword", 0.0, 13),
    _row("crisis_classification", "crisis", "macro_f1", 0.0, 2, unparsed=19),
    _row("crisis_classification", "crisis", "macro_f1_strict", 0.0, 21, unparsed=19),
]
WHOLE = [
    f"{LONG_TASK}*",
    "— every answer unparsed",
    "mean relative_drop_strict",
    "over_refusal_rate_keyword",
    "19 of 21 answers unparsed (more than 50%)",
]


def _printed(monkeypatch: pytest.MonkeyPatch, console: ReadableConsole) -> str:
    log = SimpleNamespace(status="success", samples=[SimpleNamespace(error=None)], location=None)
    monkeypatch.setattr(summary, "console", console)
    monkeypatch.setattr(summary, "metric_rows", lambda _log: ROWS)
    summary.print_results([log])
    file: Any = console.file
    return str(file.getvalue())


def test_a_piped_summary_cuts_no_cell_and_wraps_no_line(monkeypatch: pytest.MonkeyPatch) -> None:
    text = _printed(monkeypatch, ReadableConsole(file=io.StringIO(), width=80))  # COLUMNS=80, piped
    assert "…" not in text
    for whole in WHOLE:
        assert whole in text, whole
    # a note is one line however long, and the table is a table (its header row)
    (note,) = [line for line in text.splitlines() if line.startswith("† crisis_classification")]
    assert note.endswith("19 of 21 answers unparsed (more than 50%)") and len(note) > 80
    assert any("task" in line and "headline" in line and "value [95% CI]" in line for line in text.splitlines())


def test_on_a_terminal_too_narrow_for_the_table_each_task_is_two_lines_none_cut(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    console = ReadableConsole(file=io.StringIO(), width=80, force_terminal=True, color_system=None)
    text = _printed(monkeypatch, console)
    lines = text.splitlines()
    assert "…" not in text and all(len(line.rstrip()) <= 80 for line in lines)
    for whole in WHOLE[:4]:  # the notes wrap at spaces on a terminal; the cells are whole
        assert whole in text, whole
    at = lines.index(f"{LONG_TASK}*")
    assert lines[at + 1].strip() == "relative_drop · — every answer unparsed · 6 / 6"  # items / unparsed, as every row
