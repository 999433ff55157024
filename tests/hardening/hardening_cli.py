"""Helpers of the hardening tests: run the real CLI as a subprocess in an isolated HOME."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SRC = REPO / "src"
TEST_KEY = "sk-test-hardening-7f3a9c2e51d84b06"


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
