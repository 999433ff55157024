"""Open the report in headless Chromium: charts drawn, no console errors, usable narrow.

Screenshots go to ``artifacts/report/`` under the repository root (gitignored).
Skips only when Chromium is absent and ``CI`` is unset; under CI a missing browser fails.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from tests.report.report_helpers import Logs, write_alignment
from trustmh.report import build_report

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "report"
# What a drawn plotly chart contains: trace groups (lines, bars, points) or heatmap images.
DRAWN = ".main-svg .trace path, .main-svg .trace .point, .main-svg image, .main-svg .barlayer path"


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


def test_missing_browser_skips_locally_and_fails_under_ci(tmp_path: Path) -> None:
    absent, present = tmp_path / "none", Path(__file__)
    assert missing_browser(present, present, {})[0] is None
    assert missing_browser(absent, present, {})[0] == "skip"
    assert missing_browser(absent, present, {"CI": "false"})[0] == "skip"
    assert missing_browser(absent, present, {"CI": "true"})[0] == "fail"


@pytest.fixture(scope="module")
def driver() -> Iterator[object]:
    action, reason = missing_browser(CHROMIUM, CHROMEDRIVER, os.environ)
    if action == "fail":
        pytest.fail(reason)
    if action == "skip":
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="trustmh-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    browser = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        yield browser
    finally:
        browser.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def report(logs: Logs, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("browser")
    return build_report([logs.root], out / "report.html", align_json=write_alignment(out / "align.json"))


def _load(driver, report: Path, width: int, height: int) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    driver.set_window_size(width, height)
    driver.get(report.as_uri())
    count = driver.execute_script("return document.querySelectorAll('[data-figure]').length")
    WebDriverWait(driver, 60).until(
        lambda d: d.execute_script("return document.querySelectorAll('[data-figure] .main-svg').length") >= count
    )


def _screenshot(driver, name: str) -> Path:
    """Full-page PNG via the DevTools protocol (selenium alone captures the viewport only)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    metrics = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})
    size = metrics.get("cssContentSize") or metrics["contentSize"]
    shot = driver.execute_cdp_cmd(
        "Page.captureScreenshot",
        {
            "format": "png",
            "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": size["width"], "height": min(size["height"], 16000), "scale": 1},
        },
    )
    path = ARTIFACTS / f"{name}.png"
    path.write_bytes(base64.b64decode(shot["data"]))
    driver.save_screenshot(str(ARTIFACTS / f"{name}-viewport.png"))
    print(f"screenshot: {path}")
    return path


def _remote_requests(driver) -> list[str]:
    """URLs the page fetched other than itself and inline data (the report must be offline)."""
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            url = message["params"]["request"]["url"]
            if url.startswith(("http:", "https:", "ws:", "wss:", "ftp:")):  # chrome:// pages are the browser's own
                urls.append(url)
    return urls


def _severe(driver) -> list[str]:
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


@pytest.mark.slow
def test_desktop_charts_drawn_without_console_errors(driver, report: Path) -> None:
    _load(driver, report, 1280, 800)
    charts = driver.execute_script(
        "return Array.from(document.querySelectorAll('[data-figure]')).map(el => "
        "[el.id, el.querySelectorAll(arguments[0]).length, el.getBoundingClientRect().width])",
        DRAWN,
    )
    assert len(charts) >= 10
    empty = [c for c in charts if c[1] == 0 or c[2] < 200]
    assert not empty, f"charts without drawn content: {empty}"
    assert driver.execute_script("return document.getElementById(arguments[0]) !== null", "overview")
    assert not _severe(driver)
    assert not _remote_requests(driver)
    assert _screenshot(driver, "desktop-1280x800").stat().st_size > 10_000


@pytest.mark.slow
def test_sample_link_opens_collapsed_table(driver, report: Path) -> None:
    _load(driver, report, 1280, 800)
    assert driver.execute_script("return document.querySelectorAll('details.samples[open]').length") == 0
    from selenium.webdriver.support.ui import WebDriverWait

    driver.find_element("css selector", "a.sample-link").click()
    # hashchange fires asynchronously after the click
    WebDriverWait(driver, 10).until(
        lambda d: d.execute_script("return document.querySelectorAll('details.samples[open]').length") == 1
    )
    assert not _severe(driver)


@pytest.mark.slow
def test_narrow_window_has_no_horizontal_page_scroll(driver, report: Path) -> None:
    _load(driver, report, 390, 844)
    overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1
    widths = driver.execute_script(
        "return Array.from(document.querySelectorAll('[data-figure] .main-svg:first-child')).map(s => s.getBoundingClientRect().width)"
    )
    assert widths and max(widths) <= 390
    assert not _severe(driver)
    _screenshot(driver, "narrow-390x844")


@pytest.mark.slow
def test_redacted_page_renders(driver, logs: Logs, tmp_path: Path) -> None:
    page = build_report([logs.root], tmp_path / "redacted.html", redact=True)
    _load(driver, page, 1280, 800)
    assert driver.execute_script("return document.querySelectorAll('details.samples table').length") == 0
    assert not _severe(driver)
    _screenshot(driver, "redacted-1280x800")
