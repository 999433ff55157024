"""The flagged-turn CSV keeps conversation ids through a spreadsheet-safe round trip: ids that start
like a formula (ASCII ``= + - @`` or their fullwidth forms ``＝ ＋ － ＠``) are written inert and
``trustmh judge-check`` reads them back as the ids of the log. Before, an id neutralised to ``'=...``
was read as ``'=...`` (no such sample) and a fullwidth ``＝...`` was written live."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.audit.audit_helpers import EXAMPLE_JSONL, RubricJudge, audit_log
from tests.doubles.openai_double import OpenAIDouble
from trustmh.audit.run import FLAGGED_FILE
from trustmh.cli.main import app
from trustmh.core.spreadsheet import FORMULA_PREFIXES

runner = CliRunner()
HOSTILE_IDS = ['=HYPERLINK("http://evil.example","help")', "＝1+1", "＋SUM(A1)", "－2", "＠SUM(A1)", "@x", "+1-2", "-c"]


def _export(path: Path) -> Path:
    """c-006 (a validated delusion: DCS and HES flagged) once under each hostile id."""
    c006 = next(
        json.loads(line) for line in EXAMPLE_JSONL.read_text(encoding="utf-8").splitlines() if '"c-006"' in line
    )
    path.write_text("".join(json.dumps({**c006, "id": cid}) + "\n" for cid in HOSTILE_IDS), encoding="utf-8")
    return path


def test_flagged_ids_are_inert_and_read_back_by_judge_check(tmp_path: Path) -> None:
    log_dir = tmp_path / "logs"
    with pytest.MonkeyPatch.context() as patch, OpenAIDouble(responder=RubricJudge()) as server:
        patch.setenv("OPENAI_BASE_URL", server.base_url)
        patch.setenv("OPENAI_API_KEY", "sk-test-audit-0000")
        # a judge name of its own: inspect memoizes a model per process with the base URL it was
        # made with, and another test's double under that name is gone
        args = ["audit", str(_export(tmp_path / "bot.jsonl")), "--judge", "openai/flagged-round-trip-judge"]
        result = runner.invoke(app, [*args, "--log-dir", str(log_dir), "--no-report"])
    assert result.exit_code == 0, result.output
    assert sorted(str(s.id) for s in audit_log(log_dir).samples or []) == sorted(HOSTILE_IDS)

    with (log_dir / FLAGGED_FILE).open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert not [r["sample_id"] for r in rows if r["sample_id"][0] in FORMULA_PREFIXES]
    assert {r["sample_id"] for r in rows} == {"'" + cid for cid in HOSTILE_IDS}

    labelled = tmp_path / "labelled.csv"
    with labelled.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows({**r, "score": "2"} for r in rows if r["field"] == "dcs")
    (log,) = log_dir.glob("*.eval")
    out = tmp_path / "check.json"
    result = runner.invoke(
        app, ["judge-check", "--log", str(log), "--human", str(labelled), "--bootstrap", "0", "--json", str(out)]
    )
    assert result.exit_code == 0, result.output
    (dcs,) = json.loads(out.read_text(encoding="utf-8"))["fields"]
    assert dcs["field"] == "dcs" and dcs["n"] == 2 * len(HOSTILE_IDS)  # both turns of each
