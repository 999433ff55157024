"""Two runs on one log folder or one bulk cache: the second refuses at once, exit 2 (issue 12, item 8)."""

from __future__ import annotations

from pathlib import Path

from tests.bulk.cli import generate
from tests.doubles.openai_double import OpenAIDouble
from tests.hardening.hardening_cli import REPO, isolated_env, run_cli
from trustmh.core.locks import exclusive
from trustmh.run.runner import LOCK_FILE


def test_a_second_run_on_the_same_log_folder_refuses(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    logs = tmp_path / "logs"
    logs.mkdir()
    with exclusive(logs / LOCK_FILE, "the first run"):  # a run in progress (this process)
        result = run_cli(
            ["run", "privacy_psyleak", "--limit", "1", "--log-dir", str(logs), "--no-report"], REPO, isolated_env(home)
        )
    assert result.returncode == 2, result.stderr[-2000:]
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and f"log folder {logs} is in use by another trustmh run" in lines[0], lines
    assert not list(logs.glob("*.eval"))


def test_a_second_bulk_run_on_the_same_cache_refuses(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    conversations = tmp_path / "conv.csv"
    conversations.write_text("context\nI cannot sleep.\n", encoding="utf-8")
    cache = tmp_path / "bulk.sqlite"
    with OpenAIDouble() as server, exclusive(cache.with_name(cache.name + ".lock"), "the first run"):
        result = run_cli(
            generate(
                conversations,
                tmp_path / "out.csv",
                "--base-url",
                server.base_url,
                "--cache",
                str(cache),
                "--no-progress",
            ),
            REPO,
            isolated_env(home, OPENAI_API_KEY="sk-test-one-writer-000"),
        )
    assert result.returncode == 2, result.stderr[-2000:]
    assert f"cache {cache} is in use by another trustmh run" in result.stderr
    assert not (tmp_path / "out.csv").exists()
