"""``trustmh generate`` / ``trustmh judge`` through the CLI: formats, errors, secrets."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import openpyxl
import pytest
from typer.testing import CliRunner

from trustmh.cli.bulk import standalone_app
from trustmh.mentalalign.rubric import generation_prompt
from trustmh.mentalalign.schema import ATTRIBUTES, EXPLANATION, OVERALL
from trustmh.testing.openai_double import Faults, OpenAIDouble

VERDICT_KEYS = [*ATTRIBUTES, OVERALL, EXPLANATION]  # as in the released judge files

runner = CliRunner()


def invoke(*args: str) -> tuple[int, str]:
    result = runner.invoke(standalone_app(), list(args))
    # Rich wraps long lines at the terminal width; compare text with whitespace collapsed.
    return result.exit_code, " ".join(result.output.split())


def common(base_url: str, tmp_path: Path) -> list[str]:
    return ["--base-url", base_url, "--cache", str(tmp_path / "cache.sqlite"), "--no-progress", "--timeout", "5"]


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def test_generate_writes_the_wide_format_with_one_column_per_model(
    tmp_path: Path, tiny_csv: Path, fake_key: str
) -> None:
    out = tmp_path / "responses.csv"
    with OpenAIDouble() as server:
        code, output = invoke(
            "generate",
            "--conversations",
            str(tiny_csv),
            "--model",
            "openai/gpt-x",
            "--model",
            "mine=openai/other",
            "-o",
            str(out),
            "--price-in",
            "1",
            "--price-out",
            "2",
            *common(server.base_url, tmp_path),
        )
    assert code == 0, output
    rows = read_csv(out)
    assert list(rows[0]) == ["context", "response", "synthetic_model_a", "gpt-x", "mine"]
    assert len(rows) == 3
    assert all(row["gpt-x"].startswith("I hear you.") and row["mine"] for row in rows)
    summary = json.loads((tmp_path / "responses.csv.summary.json").read_text())
    assert summary["fresh_successes"] == 6 and summary["failed_cells"] == []
    assert summary["cost"] > 0


def test_generate_sends_mentalbench_generation_prompt_as_the_only_message(
    tmp_path: Path, tiny_csv: Path, fake_key: str
) -> None:
    seen: list[list[dict[str, str]]] = []

    def responder(messages: list[dict[str, str]]) -> str:
        seen.append(messages)
        return "ok"

    contexts = [row["context"] for row in read_csv(tiny_csv)]
    with OpenAIDouble(responder=responder) as server:
        code, output = invoke(
            "generate", "--conversations", str(tiny_csv), "--model", "openai/m", "-o", str(tmp_path / "a.csv"),
            *common(server.base_url, tmp_path),
        )  # fmt: skip
        assert code == 0, output
        assert sorted(m[0]["content"] for m in seen) == sorted(generation_prompt(c) for c in contexts)
        assert all(len(m) == 1 and m[0]["role"] == "user" for m in seen)
        assert all(m[0]["content"].startswith("You are a licensed psychiatrist") for m in seen)
        seen.clear()
        code, output = invoke(
            "generate", "--conversations", str(tiny_csv), "--model", "openai/m", "-o", str(tmp_path / "b.csv"),
            "--prompt-template", "{user_concern}", "--system", "Be brief.", *common(server.base_url, tmp_path),
        )  # fmt: skip
    assert code == 0, output
    assert sorted(m[1]["content"] for m in seen) == sorted(contexts)
    assert all(m[0] == {"role": "system", "content": "Be brief."} for m in seen)
    code, output = invoke(
        "generate", "--conversations", str(tiny_csv), "--model", "openai/m", "-o", str(tmp_path / "c.csv"),
        "--prompt-template", "no placeholder",
    )  # fmt: skip
    assert code == 2 and "--prompt-template" in output and "{user_concern}" in output


def test_generate_failures_leave_empty_cells_that_are_listed(tmp_path: Path, tiny_csv: Path, fake_key: str) -> None:
    out = tmp_path / "responses.csv"
    with OpenAIDouble(faults=Faults(http_5xx=1.0)) as server:
        code, output = invoke(
            "generate",
            "--conversations",
            str(tiny_csv),
            "--model",
            "openai/m",
            "-o",
            str(out),
            "--max-attempts",
            "2",
            *common(server.base_url, tmp_path),
        )
    # outputs are written, but a run with failed cells is not a success (exit 3, issue 12 item 7)
    assert code == 3, output
    assert "3 of 3 cells failed (HTTP 503: 3)" in output and "rerun the same command" in output
    assert [row["m"] for row in read_csv(out)] == ["", "", ""]
    summary = json.loads((tmp_path / "responses.csv.summary.json").read_text())
    assert summary["failures"] == 3 and summary["failure_reasons"] == {"HTTP 503": 3}
    assert [cell["where"] for cell in summary["failed_cells"]] == ["line 2", "line 3", "line 4"]
    assert summary["empty_replies"] == []
    assert "3 failed calls left empty cells, 0 empty replies" in output


def test_an_empty_reply_is_not_a_failed_cell(tmp_path: Path, tiny_csv: Path, fake_key: str) -> None:
    out = tmp_path / "responses.csv"
    with OpenAIDouble(responder=lambda messages: "") as server:
        code, output = invoke(
            "generate", "--conversations", str(tiny_csv), "--model", "openai/m", "-o", str(out),
            *common(server.base_url, tmp_path),
        )  # fmt: skip
    assert code == 0, output
    summary = json.loads((tmp_path / "responses.csv.summary.json").read_text())
    assert summary["failed_cells"] == [] and [c["where"] for c in summary["empty_replies"]] == [
        "line 2",
        "line 3",
        "line 4",
    ]
    assert "0 failed calls left empty cells, 3 empty replies" in output


def test_judge_writes_the_mentalalign_judge_format(tmp_path: Path, tiny_csv: Path, fake_key: str) -> None:
    out = tmp_path / "judge.xlsx"
    with OpenAIDouble() as server:
        code, output = invoke(
            "judge",
            "--responses",
            str(tiny_csv),
            "--judge-model",
            "openai/judge",
            "--key",
            "original",
            "--key",
            "synthetic_model_a",
            "-o",
            str(out),
            *common(server.base_url, tmp_path),
        )
        code_limited, output_limited = invoke(
            "judge",
            "--responses",
            str(tiny_csv),
            "--judge-model",
            "openai/judge",
            "--key",
            "original",
            "-o",
            str(tmp_path / "first.csv"),
            "--limit",
            "1",
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
            "judge",
            "--responses",
            str(tiny_csv),
            "--judge-model",
            "openai/judge",
            "--key",
            "original",
            "-o",
            str(out),
            "--max-verdict-attempts",
            "3",
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
            code, output = invoke(
                "judge",
                "--responses",
                str(tiny_csv),
                "--judge-model",
                "openai/judge",
                "-o",
                str(tmp_path / name),
                *common(server.base_url, tmp_path),
            )
            assert code == 0, output
        counts = server.request_counts
    assert len(counts) == 6 and set(counts.values()) == {1}
    assert (tmp_path / "a.csv").read_text() == (tmp_path / "b.csv").read_text()


def test_the_api_key_appears_in_no_written_file(tmp_path: Path, tiny_csv: Path, fake_key: str) -> None:
    faults = Faults(http_5xx=0.3, http_429=0.2, malformed=0.2, retry_after=0.01)
    with OpenAIDouble(faults=faults, seed=5) as server:
        for command in (
            [
                "generate",
                "--conversations",
                str(tiny_csv),
                "--model",
                "openai/m",
                "-o",
                str(tmp_path / "g.csv"),
                "--max-attempts",
                "2",
            ],
            [
                "judge",
                "--responses",
                str(tmp_path / "g.csv"),
                "--judge-model",
                "openai/j",
                "-o",
                str(tmp_path / "j.xlsx"),
            ],
        ):
            code, output = invoke(*command, *common(server.base_url, tmp_path))
            assert code in (0, 3), output  # 3: some cells failed under this fault mix (written anyway)
            assert fake_key not in output
        sent = server.state.headers_seen
    assert any(h.get("Authorization") == f"Bearer {fake_key}" for h in sent)  # it was really used
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert {p.name for p in written} >= {"g.csv", "g.csv.summary.json", "j.xlsx", "j.xlsx.summary.json", "cache.sqlite"}
    for path in written:
        assert fake_key.encode() not in path.read_bytes(), path


@pytest.mark.parametrize("model", ["gpt-4o", "openai/", "trustmh/gguf/", "anthropic/", "google/gemini"])
def test_unknown_model_syntax_is_one_line_exit_2(tmp_path: Path, tiny_csv: Path, fake_key: str, model: str) -> None:
    out = tmp_path / "out.csv"
    code, output = invoke("generate", "--conversations", str(tiny_csv), "--model", model, "-o", str(out), "--no-cache")
    assert code == 2 and "unknown model syntax" in output
    assert not out.exists()


def test_bad_inputs_are_one_line_errors_and_nothing_is_written(
    tmp_path: Path, tiny_csv: Path, fake_key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    no_context = tmp_path / "no_context.csv"
    no_context.write_text("prompt,response\nhello,hi\n", encoding="utf-8")
    broken = tmp_path / "broken.csv"
    broken.write_text('context,response\n"fine",ok\nextra,cells,here\n', encoding="utf-8")
    empty_context = tmp_path / "empty_context.csv"
    empty_context.write_text("context,response\nhello,hi\n ,hi\n", encoding="utf-8")
    out = tmp_path / "out.csv"
    cases = [
        (
            ["generate", "--conversations", str(no_context), "--model", "openai/m", "-o", str(out)],
            "no_context.csv:line 1: missing column 'context'",
        ),
        (
            ["generate", "--conversations", str(broken), "--model", "openai/m", "-o", str(out)],
            "broken.csv:line 3: row has more fields",
        ),
        (
            ["generate", "--conversations", str(empty_context), "--model", "openai/m", "-o", str(out)],
            "empty_context.csv:line 3, column 'context': empty context",
        ),
        (
            ["generate", "--conversations", str(tiny_csv), "--model", "openai/m", "-o", str(tmp_path / "out.txt")],
            "must be a .csv or .xlsx",
        ),
        (
            ["generate", "--conversations", str(tmp_path / "missing.csv"), "--model", "openai/m", "-o", str(out)],
            "missing.csv: file not found",
        ),
        (
            ["judge", "--responses", str(tiny_csv), "--judge-model", "openai/j", "--key", "nope", "-o", str(out)],
            "--key: 'nope'",
        ),
        (
            [
                "generate",
                "--conversations",
                str(tiny_csv),
                "--model",
                "openai/m",
                "-o",
                str(out),
                "--api-key-env",
                "TRUSTMH_NO_SUCH_VAR",
            ],
            "TRUSTMH_NO_SUCH_VAR is not set",
        ),
    ]
    for args, message in cases:
        code, output = invoke(*args, "--no-cache", "--no-progress")
        assert code == 2, (args, output)
        assert message in output, output
        assert "Traceback" not in output
        assert not out.exists()


def test_every_command_has_help_with_an_example() -> None:
    for command in ("generate", "judge"):
        code, output = invoke(command, "--help")
        assert code == 0 and "Example: trustmh " + command in output


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
            "judge",
            "--responses",
            str(responses),
            "--judge-model",
            "openai/j",
            "--key",
            "original",
            "-o",
            str(tmp_path / "judge.csv"),
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
            "judge",
            "--responses",
            str(tiny_csv),
            "--judge-model",
            "openai/j",
            "--key",
            "original",
            "-o",
            str(out),
            *common(server.base_url, tmp_path),
        )
    assert code == 0, output
    ours = list(openpyxl.load_workbook(out).active.iter_rows(values_only=True))
    assert list(ours[0]) == header[:3]
    assert list(json.loads(ours[1][2])) == list(first_scores)


def test_an_unusable_cache_is_a_one_line_error(tmp_path: Path, tiny_csv: Path, fake_key: str) -> None:
    cache = tmp_path / "cache.sqlite"
    cache.write_bytes(b"this is not a database" * 100)
    out = tmp_path / "out.csv"
    code, output = invoke(
        "generate",
        "--conversations",
        str(tiny_csv),
        "--model",
        "openai/m",
        "-o",
        str(out),
        "--cache",
        str(cache),
        "--base-url",
        "http://127.0.0.1:9/v1",
        "--no-progress",
    )
    assert code == 2 and "not a usable cache database" in output and "Traceback" not in output
    assert not out.exists()
