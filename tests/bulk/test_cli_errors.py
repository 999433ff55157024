"""``trustmh generate`` / ``trustmh judge`` errors and secrets: one line, exit 2, nothing written, no key."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bulk.cli import common, generate, invoke, judge
from tests.doubles.openai_double import Faults, OpenAIDouble


def test_the_api_key_appears_in_no_written_file(tmp_path: Path, tiny_csv: Path, fake_key: str) -> None:
    faults = Faults(http_5xx=0.3, http_429=0.2, malformed=0.2, retry_after=0.01)
    with OpenAIDouble(faults=faults, seed=5) as server:
        for command in (
            generate(tiny_csv, tmp_path / "g.csv", "--max-attempts", "2"),
            judge(tmp_path / "g.csv", tmp_path / "j.xlsx", judge_model="openai/j"),
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
    code, output = invoke(*generate(tiny_csv, out, "--no-cache", model=model))
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
        (generate(no_context, out), "no_context.csv:line 1: missing column 'context'"),
        (generate(broken, out), "broken.csv:line 3: row has more fields"),
        (generate(empty_context, out), "empty_context.csv:line 3, column 'context': empty context"),
        (generate(tiny_csv, tmp_path / "out.txt"), "must be a .csv or .xlsx"),
        (generate(tmp_path / "missing.csv", out), "missing.csv: file not found"),
        (judge(tiny_csv, out, "--key", "nope", judge_model="openai/j"), "--key: 'nope'"),
        (generate(tiny_csv, out, "--api-key-env", "TRUSTMH_NO_SUCH_VAR"), "TRUSTMH_NO_SUCH_VAR is not set"),
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


def test_an_unusable_cache_is_a_one_line_error(tmp_path: Path, tiny_csv: Path, fake_key: str) -> None:
    cache = tmp_path / "cache.sqlite"
    cache.write_bytes(b"this is not a database" * 100)
    out = tmp_path / "out.csv"
    code, output = invoke(
        *generate(tiny_csv, out, "--cache", str(cache), "--base-url", "http://127.0.0.1:9/v1", "--no-progress")
    )
    assert code == 2 and "not a usable cache database" in output and "Traceback" not in output
    assert not out.exists()
