"""Where the browser tests find headless Chromium, and what they do when it is missing."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")


def missing_browser(chromium: Path, chromedriver: Path, env: Mapping[str, str]) -> tuple[str | None, str]:
    """``("skip" | "fail" | None, reason)``: a missing browser fails under CI, else skips."""
    if chromium.exists() and chromedriver.exists():
        return None, ""
    if env.get("CI", "").lower() not in ("", "0", "false"):
        return (
            "fail",
            f"CI is set but {chromium} or {chromedriver} is missing (apt-get install chromium chromium-driver)",
        )
    return "skip", f"{chromium} not installed (apt-get install chromium chromium-driver); under CI=true this fails"
