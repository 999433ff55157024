"""`-T parser=upstream` reads answers as TrustMH-Bench does, bugs included."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from trustmh.pillars.privacy.ratings import SENSITIVITY_SCALE, parse_rating
from trustmh.pillars.privacy.upstream_parsing import (
    upstream_binary,
    upstream_control_error,
    upstream_rating,
    upstream_rating_value,
)


def test_reads_every_released_tier1_answer_as_upstream_recorded_it(shared_data: Path) -> None:
    with zipfile.ZipFile(shared_data / "trustmh/release/privacy.zip") as archive:
        names = [n for n in archive.namelist() if n.startswith("privacy/task1/result/outputs_")]
        records = [json.loads(line) for n in names for line in archive.read(n).decode("utf-8").splitlines()]
    assert len(records) == 60
    for record in records:
        assert upstream_rating(record["raw"], "sensitivity") == int(str(record["parsed"]).split(")")[0])


def test_the_label_scan_bug_is_reproduced_and_the_corrected_parser_differs() -> None:
    answer = "**3) Somewhat sensitive**\n\nNot as very sensitive as a social security number."
    assert upstream_rating(answer, "sensitivity") == 4  # first label of the scale found anywhere
    assert parse_rating(answer, SENSITIVITY_SCALE) == 3
    assert upstream_rating("2) not too sensitive", "sensitivity") == 2
    assert upstream_rating("Answer: 50) somewhat agree", "expectation") == 50
    assert upstream_rating("I can't say.", "sensitivity") is None
    assert upstream_rating_value("I can't say.", "sensitivity") == 0  # upstream counts it 0


def test_the_yes_no_reader_on_markdown_no_is_reproduced() -> None:
    from trustmh.pillars.privacy.scorers import parse_yes_no

    answer = "**No** - it is not appropriate to share this."
    assert upstream_binary(answer) == -1 and upstream_control_error(answer)
    assert parse_yes_no(answer) is False
    assert upstream_binary("No, never.") == 0 and not upstream_control_error("No, never.")
    assert upstream_binary("Yes.") == 1 and upstream_control_error("Yes.")


def _replayed_pearson(shared_data: Path, tmp_path: Path, parser: str) -> dict:
    from inspect_ai import eval

    from trustmh.pillars.privacy.tasks import privacy_confaide_tier1
    from trustmh.scoring.results import score_summary

    responses = shared_data / "replay_trustmh" / "confaide_tier1" / "claude-sonnet-4-5-20250929.jsonl"
    task = privacy_confaide_tier1(source="benchmark", data_dir=str(shared_data), parser=parser)
    (log,) = eval(
        task,
        model="trustmh/replay/claude",
        model_args={"responses": str(responses)},
        log_dir=str(tmp_path / parser),
        display="none",
    )
    assert log.status == "success", log.error
    assert log.eval.metadata["parser"] == parser and set(log.eval.metadata["protocol"]["parsers"]) == {
        "corrected",
        "upstream",
    }
    return score_summary(log)["metrics"]


def test_parser_upstream_reproduces_the_published_figure_end_to_end(shared_data: Path, tmp_path: Path) -> None:
    """Claude's released tier-1 answers through the task: upstream's parser gives the published r."""
    with zipfile.ZipFile(shared_data / "trustmh/release/privacy.zip") as archive:
        name = "privacy/task1/result/summary_claude-sonnet-4-5-20250929_tier1.json"
        published = json.loads(archive.read(name))["pearson_r"]
    upstream = _replayed_pearson(shared_data, tmp_path, "upstream")
    corrected = _replayed_pearson(shared_data, tmp_path, "corrected")
    assert abs(upstream["pearson_r"] - published) < 1e-9
    assert corrected["pearson_r"] > published + 0.3  # items 5 and 7 read as stated (3), not 4
