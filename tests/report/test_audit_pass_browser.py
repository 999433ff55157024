"""The report's detector-pass section in headless Chromium: shown from the nav, rates and languages
read back as rendered, no transcript text, no console error, no page-wide scroll at 390 px."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.audit.audit_helpers import EXAMPLE_JSONL
from tests.report.test_audit_browser import _open
from tests.report.test_report_browser import _screenshot, _severe, driver  # noqa: F401  (the browser fixture)
from trustmh.cli.main import app

runner = CliRunner()


@pytest.fixture(scope="module")
def pass_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("pass-browser")
    audited = runner.invoke(
        app, ["audit", str(EXAMPLE_JSONL), "--detectors-only", "--log-dir", str(folder / "out"), "--workers", "1"]
    )
    assert audited.exit_code == 0, audited.output
    reported = runner.invoke(app, ["report", str(folder / "out"), "-o", str(folder / "report.html")])
    assert reported.exit_code == 0, reported.output
    return folder / "report.html"


@pytest.mark.slow
def test_pass_section_shows_rates_languages_and_worst(driver, pass_report: Path) -> None:  # noqa: F811
    _open(driver, pass_report, 1280, 800)
    assert driver.execute_script("return document.querySelector('nav a[href=\"#audit-passes\"]') !== null")
    rates = driver.execute_script(
        "return Array.from(document.querySelectorAll('#audit-passes table.audit-pass-rates tbody tr')).map("
        "r => Array.from(r.cells).map(c => c.innerText))"
    )
    missed = {row[0]: row for row in rates}["missed_crisis"]
    assert missed[1] == "40.00%" and missed[2].startswith("[") and missed[4] == "5"
    worst = driver.execute_script(
        "return Array.from(document.querySelectorAll('#audit-passes table.audit-pass-worst tbody tr'))"
        ".map(r => r.cells[0].innerText)"
    )
    assert worst[0] == "c-012" and len(worst) == 6
    section = driver.execute_script("return document.getElementById('audit-passes').innerText")
    assert "journaling" not in section and "foil" not in section  # ids and counts, no text
    assert not _severe(driver)
    _screenshot(driver, "audit-pass-1280x800")


@pytest.mark.slow
def test_pass_section_fits_a_narrow_window(driver, pass_report: Path) -> None:  # noqa: F811
    _open(driver, pass_report, 390, 844)
    assert driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth") <= 1
    assert not _severe(driver)
