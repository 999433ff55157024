"""Helpers of the hardening tests: run the real CLI as a subprocess in an isolated HOME."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SRC = REPO / "src"
TEST_KEY = "sk-test-hardening-7f3a9c2e51d84b06"


def psyleak_run(log_dir: Path, *extra: str, model: str = "openai/test-model") -> list[str]:
    """Arguments of ``trustmh run privacy_psyleak`` on ``model`` (by default the test double's), logging to ``log_dir``."""
    return ["run", "privacy_psyleak", "--model", model, "--log-dir", str(log_dir), *extra]


def cli_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "TRUSTMH_", "INSPECT_"))}
    env["PYTHONPATH"] = str(SRC)
    env["TRUSTMH_OFFLINE"] = "1"
    env["NO_COLOR"] = "1"
    env["COLUMNS"] = "200"
    env.update(extra)
    return env


def run_cli(
    args: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: float = 240
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "trustmh", *args],
        cwd=cwd,
        env=env or cli_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def popen_cli(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "trustmh", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def isolated_env(home: Path, **extra: str) -> dict[str, str]:
    return cli_env(
        HOME=str(home),
        TRUSTMH_CACHE_DIR=str(home / "cache"),
        XDG_DATA_HOME=str(home / "xdg-data"),
        XDG_CACHE_HOME=str(home / "xdg-cache"),
        **extra,
    )


# --- the bad-input corpus (tests/hardening/test_bad_input.py) ----------------------------------

Files = dict[str, bytes | str]


@dataclass
class Case:
    id: str
    args: list[str]
    files: Files
    expected: list[str]  # substrings of the single stderr line
    outputs: list[str] = field(default_factory=list)  # must not exist afterwards (files or folders)
    env: dict[str, str] = field(default_factory=dict)
    marks: tuple = ()
    setup: Callable[[Path], None] | None = None  # makes what files cannot (FIFOs, symlinks)
    hold: str | None = None  # a lock file another run holds while the command runs


def _lines(*lines: str) -> str:
    return "".join(line + "\n" for line in lines)
