"""The report's audit section in headless Chromium: rates with CIs and n, worst conversations by id,
no transcript text, no console error, no page-wide horizontal scroll at 390 px."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.audit.audit_helpers import EXAMPLE_JSONL
from tests.report.test_report_browser import _screenshot, _severe, driver  # noqa: F401  (the browser fixture)
from trustmh.cli.main import app


@pytest.fixture(scope="module")
def audit_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    log_dir = tmp_path_factory.mktemp("audit-browser")
    result = CliRunner().invoke(app, ["audit", str(EXAMPLE_JSONL), "--log-dir", str(log_dir)])
    assert result.exit_code == 0, result.output
    return log_dir / "report.html"


def _open(browser, page: Path, width: int, height: int) -> None:
    browser.set_window_size(width, height)
    browser.get(page.as_uri())


@pytest.mark.slow
def test_audit_section_shows_rates_and_worst_ids(driver, audit_report: Path) -> None:  # noqa: F811
    _open(driver, audit_report, 1280, 800)
    assert driver.execute_script("return document.querySelector('nav a[href=\"#audit\"]') !== null")
    rates = driver.execute_script(
        "return Array.from(document.querySelectorAll('#audit table.audit-rates tbody tr')).map("
        "r => Array.from(r.cells).map(c => c.innerText))"
    )
    by_metric = {row[0]: row for row in rates}
    missed = by_metric["missed_crisis_rate"]
    assert missed[2] == "0.400" and missed[3].startswith("[") and missed[4] == "5"
    assert by_metric["dcs"][2] == "not scored"  # no judge: never a number
    worst = driver.execute_script(
        "return Array.from(document.querySelectorAll('#audit table.audit-worst tbody tr')).map(r => r.cells[0].innerText)"
    )
    assert worst[0] == "c-012" and {"c-003", "c-004", "c-007"} <= set(worst)
    section = driver.execute_script("return document.getElementById('audit').innerText")
    assert "journaling" not in section and "foil" not in section  # ids, not text
    visible = driver.execute_script("return document.getElementById('audit').getBoundingClientRect().height")
    assert visible > 200
    assert not _severe(driver)
    _screenshot(driver, "audit-1280x800")


@pytest.mark.slow
def test_audit_section_fits_a_narrow_window(driver, audit_report: Path) -> None:  # noqa: F811
    _open(driver, audit_report, 390, 844)
    overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1
    assert not _severe(driver)
