"""``trustmh generate`` through the CLI: the wide format, the prompt sent, failed cells and empty replies."""

from __future__ import annotations

import json
from pathlib import Path

from tests.bulk.cli import common, generate, invoke, read_csv
from tests.doubles.openai_double import Faults, OpenAIDouble
from trustmh.mentalalign.rubric import GENERATION_PROMPT, generation_prompt


def test_generate_writes_the_wide_format_with_one_column_per_model(
    tmp_path: Path, tiny_csv: Path, fake_key: str
) -> None:
    out = tmp_path / "responses.csv"
    with OpenAIDouble() as server:
        code, output = invoke(
            *generate(tiny_csv, out, "--model", "mine=openai/other", model="openai/gpt-x"),
            *["--price-in", "1", "--price-out", "2"],
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
        code, output = invoke(*generate(tiny_csv, tmp_path / "a.csv"), *common(server.base_url, tmp_path))
        assert code == 0, output
        assert sorted(m[0]["content"] for m in seen) == sorted(generation_prompt(c) for c in contexts)
        assert all(len(m) == 1 and m[0]["role"] == "user" for m in seen)
        assert all(m[0]["content"].startswith(GENERATION_PROMPT.split("{user_concern}")[0]) for m in seen)
        seen.clear()
        code, output = invoke(
            *generate(tiny_csv, tmp_path / "b.csv", "--prompt-template", "{user_concern}", "--system", "Be brief."),
            *common(server.base_url, tmp_path),
        )
    assert code == 0, output
    assert sorted(m[1]["content"] for m in seen) == sorted(contexts)
    assert all(m[0] == {"role": "system", "content": "Be brief."} for m in seen)
    code, output = invoke(*generate(tiny_csv, tmp_path / "c.csv", "--prompt-template", "no placeholder"))
    assert code == 2 and "--prompt-template" in output and "{user_concern}" in output


def test_generate_failures_leave_empty_cells_that_are_listed(tmp_path: Path, tiny_csv: Path, fake_key: str) -> None:
    out = tmp_path / "responses.csv"
    with OpenAIDouble(faults=Faults(http_5xx=1.0)) as server:
        code, output = invoke(*generate(tiny_csv, out, "--max-attempts", "2"), *common(server.base_url, tmp_path))
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
        code, output = invoke(*generate(tiny_csv, out), *common(server.base_url, tmp_path))
    assert code == 0, output
    summary = json.loads((tmp_path / "responses.csv.summary.json").read_text())
    assert summary["failed_cells"] == [] and [c["where"] for c in summary["empty_replies"]] == [
        "line 2",
        "line 3",
        "line 4",
    ]
    assert "0 failed calls left empty cells, 3 empty replies" in output


def test_generate_with_upstream_prompt_sends_mentalbench_own_prompt(
    tmp_path: Path, tiny_csv: Path, fake_key: str, shared_data: Path
) -> None:
    """``--prompt-template upstream`` reads MentalBench's prompt from the pinned script: every line of
    what is sent before the context stands in that file, and none of it is our default wording."""
    seen: list[str] = []

    def responder(messages: list[dict[str, str]]) -> str:
        seen.append(messages[0]["content"])
        return "ok"

    script = (shared_data / "mentalalign70k" / "upstream" / "generate_responses.py").read_text(encoding="utf-8")
    contexts = [row["context"] for row in read_csv(tiny_csv)]
    with OpenAIDouble(responder=responder) as server:
        args = ["--prompt-template", "upstream", "--data-dir", str(shared_data)]
        code, output = invoke(*generate(tiny_csv, tmp_path / "u.csv"), *args, *common(server.base_url, tmp_path))
    assert code == 0, output
    assert len(seen) == len(contexts)
    for content, context in zip(sorted(seen), sorted(contexts), strict=True):
        assert context in content
    preamble = seen[0][: seen[0].index(contexts[0])] if contexts[0] in seen[0] else seen[0].split("\n\n")[0]
    lines = [line for line in preamble.splitlines() if line.strip()]
    assert lines and all(line in script for line in lines)
    assert GENERATION_PROMPT.split("{user_concern}")[0] not in seen[0]
