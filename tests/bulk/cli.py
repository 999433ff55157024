"""Running ``trustmh generate`` / ``trustmh judge`` in-process, for the CLI tests of this folder."""

from __future__ import annotations

import csv
from pathlib import Path

from typer.testing import CliRunner

from trustmh.cli.bulk import standalone_app
from trustmh.mentalalign.schema import ATTRIBUTES, EXPLANATION, OVERALL

VERDICT_KEYS = [*ATTRIBUTES, OVERALL, EXPLANATION]  # as in the released judge files

runner = CliRunner()


def invoke(*args: str) -> tuple[int, str]:
    result = runner.invoke(standalone_app(), list(args))
    # Rich wraps long lines at the terminal width; compare text with whitespace collapsed.
    return result.exit_code, " ".join(result.output.split())


def generate(conversations: Path, out: Path, *extra: str, model: str = "openai/m") -> list[str]:
    """Arguments of ``trustmh generate`` for one model (more ``--model`` options may follow in ``extra``)."""
    return ["generate", "--conversations", str(conversations), "--model", model, "-o", str(out), *extra]


def judge(responses: Path, out: Path, *extra: str, judge_model: str = "openai/judge") -> list[str]:
    """Arguments of ``trustmh judge``."""
    return ["judge", "--responses", str(responses), "--judge", judge_model, "-o", str(out), *extra]


def common(base_url: str, tmp_path: Path) -> list[str]:
    return ["--base-url", base_url, "--cache", str(tmp_path / "cache.sqlite"), "--no-progress", "--timeout", "5"]


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))
