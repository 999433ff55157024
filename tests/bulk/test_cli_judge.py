"""``trustmh judge`` through the CLI: the MentalAlign judge format, unparsed verdicts, resuming, xlsx."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from tests.bulk.cli import VERDICT_KEYS, common, invoke, judge, read_csv
from tests.doubles.openai_double import OpenAIDouble
from trustmh.mentalalign.schema import ATTRIBUTES, EXPLANATION, OVERALL


def test_judge_writes_the_mentalalign_judge_format(tmp_path: Path, tiny_csv: Path, fake_key: str) -> None:
    out = tmp_path / "judge.xlsx"
    with OpenAIDouble() as server:
        code, output = invoke(
            *judge(tiny_csv, out, "--key", "original", "--key", "synthetic_model_a"), *common(server.base_url, tmp_path)
        )
        code_limited, output_limited = invoke(
            *judge(tiny_csv, tmp_path / "first.csv", "--key", "original", "--limit", "1"),
            *common(server.base_url, tmp_path),
        )
    assert code == 0, output
    sheet = openpyxl.load_workbook(out).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0] == ("ConvID", "context", "judge_response_original", "judge_response_synthetic_model_a")
    assert [row[0] for row in rows[1:]] == [1, 2, 3]  # numeric ConvID, as in the released files
    for row in rows[1:]:
        for cell in row[2:]:
            scores = json.loads(cell)
            assert list(scores) == VERDICT_KEYS
            assert all(isinstance(scores[k], int) and 1 <= scores[k] <= 5 for k in [*ATTRIBUTES, OVERALL])
    assert "6 judged, 0 unparsed" in output
    assert code_limited == 0 and "1 judged" in output_limited and "cached 1" in output_limited
    assert len(read_csv(tmp_path / "first.csv")) == 1


def test_judge_counts_unparsed_verdicts_and_leaves_them_empty(tmp_path: Path, tiny_csv: Path, fake_key: str) -> None:
    def responder(messages: list[dict[str, str]]) -> str:
        prompt = messages[0]["content"]
        if "Exam panic" in prompt:  # the judge never produces a usable verdict for this one
            return "I think it is quite good, maybe a 4."
        return json.dumps({**{name: 3 for name in [*ATTRIBUTES, OVERALL]}, EXPLANATION: "Adequate."})

    out = tmp_path / "judge.csv"
    with OpenAIDouble(responder=responder) as server:
        code, output = invoke(
            *judge(tiny_csv, out, "--key", "original", "--max-verdict-attempts", "3"),
            *common(server.base_url, tmp_path),
        )
        total_requests = sum(server.request_counts.values())
    assert code == 0, output
    cells = [row["judge_response_original"] for row in read_csv(out)]
    verdict = {**{n: 3 for n in [*ATTRIBUTES, OVERALL]}, EXPLANATION: "Adequate."}
    assert cells[2] == "" and all(json.loads(c) == verdict for c in cells[:2])
    assert total_requests == 2 + 3  # two first-time verdicts, three asks for the unparsable one
    assert "2 judged, 1 unparsed" in output
    summary = json.loads((tmp_path / "judge.csv.summary.json").read_text())
    assert summary["verdicts"] == {"judged": 2, "unparsed": 1}
    [problem] = summary["unjudged_cells"]
    assert (problem["ConvID"], problem["key"], problem["status"], problem["attempts"]) == (
        "3",
        "original",
        "unparsed",
        3,
    )


def test_judge_is_resumable_because_its_prompt_is_stable(tmp_path: Path, tiny_csv: Path, fake_key: str) -> None:
    with OpenAIDouble() as server:
        for name in ("a.csv", "b.csv"):
            code, output = invoke(*judge(tiny_csv, tmp_path / name), *common(server.base_url, tmp_path))
            assert code == 0, output
        counts = server.request_counts
    assert len(counts) == 6 and set(counts.values()) == {1}
    assert (tmp_path / "a.csv").read_text() == (tmp_path / "b.csv").read_text()


def test_xlsx_responses_are_read_and_judged(tmp_path: Path, tiny_csv: Path, fake_key: str) -> None:
    from trustmh.bulk.tables import read_table, write_table

    table = read_table(tiny_csv, ["context"])
    responses = tmp_path / "responses.xlsx"
    write_table(
        responses, ["ConvID", *table.columns], [{"ConvID": str(10 + i), **row} for i, row in enumerate(table.rows)]
    )
    assert read_table(responses, ["context"]).rows[0]["ConvID"] == "10"
    with OpenAIDouble() as server:
        code, output = invoke(
            *judge(responses, tmp_path / "judge.csv", "--key", "original", judge_model="openai/j"),
            *common(server.base_url, tmp_path),
        )
    assert code == 0, output
    assert [row["ConvID"] for row in read_csv(tmp_path / "judge.csv")] == ["10", "11", "12"]


def test_our_judge_files_have_the_shape_of_the_released_ones(
    tmp_path: Path, tiny_csv: Path, fake_key: str, shared_data: Path
) -> None:
    """Only headers and score keys of the released files are read; none of their text is kept."""
    released_dir = shared_data / "mentalalign70k"
    released = openpyxl.load_workbook(released_dir / "gpt-4o_llm_judge.xlsx", read_only=True)
    header = [str(v).strip() for v in next(released.active.iter_rows(max_row=1, values_only=True))]
    human = openpyxl.load_workbook(released_dir / "human_judge.xlsx", read_only=True)
    human_scores = json.loads(next(human.active.iter_rows(min_row=2, max_row=2, values_only=True))[2])
    human.close()
    judge_cell = next(released.active.iter_rows(min_row=2, max_row=2, values_only=True))[2]
    released.close()
    first_scores = json.loads(str(judge_cell).strip().strip("`").removeprefix("json"))
    assert header[:2] == ["ConvID", "context"] and all(h.startswith("judge_response_") for h in header[2:])
    assert "judge_response_original" in header
    assert list(human_scores) == list(ATTRIBUTES)
    assert list(first_scores) == VERDICT_KEYS

    out = tmp_path / "ours.xlsx"
    with OpenAIDouble() as server:
        code, output = invoke(
            *judge(tiny_csv, out, "--key", "original", judge_model="openai/j"), *common(server.base_url, tmp_path)
        )
    assert code == 0, output
    ours = list(openpyxl.load_workbook(out).active.iter_rows(values_only=True))
    assert list(ours[0]) == header[:3]
    assert list(json.loads(ours[1][2])) == list(first_scores)


def test_a_judge_with_no_usable_verdict_is_stopped_early_and_nothing_is_written(
    tmp_path: Path, tiny_csv: Path, fake_key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from trustmh.scoring import verdict

    monkeypatch.setattr(verdict, "FIRST_VERDICTS", 2)
    out = tmp_path / "judge.csv"
    with OpenAIDouble(responder=lambda messages: "What a lovely answer! 5 stars.") as server:
        code, output = invoke(
            *judge(tiny_csv, out, "--max-connections", "1", judge_model="openai/tiny"),
            *common(server.base_url, tmp_path),
        )
        total_requests = sum(server.request_counts.values())
    assert code == 2, output
    assert output.startswith(
        "error: judge openai/tiny gave no usable verdict in its first 2 nor on a clean calibration item (each asked"
    )
    assert "'What a lovely answer! 5 stars.'" in output and "--judge " in output
    # 9 cells to judge; two verdicts and the calibration item asked three times each, then none
    assert total_requests == 3 * 3
    assert not out.exists()


def test_a_judge_run_with_no_usable_verdict_exits_4(tmp_path: Path, tiny_csv: Path, fake_key: str) -> None:
    """Issue 30: 0 usable verdicts of 3 (too few for the early stop) exited 0; now exit code 4, with
    the table and the summary listing the cells kept."""
    out = tmp_path / "judge.csv"
    with OpenAIDouble(responder=lambda messages: "Quite good, maybe a 4.") as server:
        code, output = invoke(
            *judge(tiny_csv, out, "--key", "original", "--max-verdict-attempts", "1"),
            *common(server.base_url, tmp_path),
        )
    assert code == 4, output
    assert "error: no usable verdict: 0 of 3 judged (3 unparsed, 0 empty responses)" in output
    assert out.exists() and (tmp_path / "judge.csv.summary.json").exists()
