"""The report of the default starter run, one model, as a user opens it in headless Chromium:
light (under 1.5 MB), collapsed to its headlines, no empty chart once opened, numbers under
their own headers, unparsed answers counted in the confusion matrices.

The model is the OpenAI-compatible test double (tests/doubles), which echoes the prompt:
like a small local model, most answers are unparsed. The first screen is saved as
``artifacts/report/first-screen-1280x800.png``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.doubles.openai_double import OpenAIDouble
from tests.report import test_report_browser as browser
from tests.report.test_report_browser import _CJK_GLYPHS_DIFFER, ARTIFACTS, DRAWN, _load, _remote_requests, _severe
from trustmh.report import build_report

driver = browser.driver  # the headless Chromium fixture, shared

MAX_BYTES = 1_500_000

# Per chart: its drawn marks with an area, and for a bar chart its bars with a height (whiskers
# over bars of zero height are not a bar chart).
_VISIBLE_MARKS = """
const sized = (el, selector) => Array.from(el.querySelectorAll(selector)).filter(m => {
  const r = m.getBoundingClientRect(); return r.width > 0 && r.height > 0; }).length;
return Array.from(document.querySelectorAll('[data-figure]')).map(el => [el.id, sized(el, arguments[0]),
  el.querySelector('.barlayer .trace') ? sized(el, '.barlayer .point path') : null]);
"""
# Per table column whose cells are right-aligned (numbers): the header's alignment.
_MISALIGNED = """
const out = [];
document.querySelectorAll(arguments[0]).forEach(table => {
  const heads = Array.from(table.querySelectorAll('thead th'));
  table.querySelectorAll('tbody tr').forEach(row => Array.from(row.children).forEach((cell, i) => {
    const head = heads[i];
    if (head && getComputedStyle(cell).textAlign !== getComputedStyle(head).textAlign)
      out.push([table.className, head.textContent, cell.textContent]);
  }));
});
return out;
"""
_EMPTY_COLUMNS = """
const out = [];
document.querySelectorAll(arguments[0]).forEach(table => {
  const heads = Array.from(table.querySelectorAll('thead th'));
  heads.forEach((head, i) => {
    const cells = Array.from(table.querySelectorAll('tbody tr')).map(r => r.children[i]);
    if (cells.length && cells.every(c => c && !c.textContent.trim())) out.push([table.className, head.textContent]);
  });
});
return out;
"""


@pytest.fixture(scope="module")
def starter_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``trustmh run`` with its defaults (every starter task) on one model, then its report."""
    folder = tmp_path_factory.mktemp("starter-run")
    env = {**os.environ, "OPENAI_API_KEY": "sk-test-report-weight"}
    with OpenAIDouble() as server:
        command = [sys.executable, "-m", "trustmh", "run", "-m", "openai/double", "--log-dir", str(folder / "logs")]
        command += ["-M", f"base_url={server.base_url}", "-M", "responses_api=false"]
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return build_report([folder / "logs"], folder / "report.html")


@pytest.mark.slow
def test_default_starter_report_is_light_collapsed_and_has_no_empty_chart(driver, starter_report: Path) -> None:
    size = starter_report.stat().st_size
    print(f"report of the default starter run: {size:,} bytes")
    assert size < MAX_BYTES, f"{size:,} bytes"

    _load(driver, starter_report, 1280, 800, expand=False)
    collapsed = driver.execute_script("return document.documentElement.scrollHeight")
    print(f"page height collapsed: {collapsed} px")
    assert collapsed < 12_000
    assert driver.execute_script("return document.querySelectorAll('details.more[open]').length") == 0
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    first = ARTIFACTS / "first-screen-1280x800.png"
    driver.save_screenshot(str(first))
    assert first.stat().st_size > 10_000

    _load(driver, starter_report, 1280, 800)
    marks = driver.execute_script(_VISIBLE_MARKS, DRAWN)
    assert marks, "no charts"
    assert not [m for m in marks if m[1] == 0], f"charts with nothing drawn: {[m for m in marks if m[1] == 0]}"
    assert not [m for m in marks if m[2] == 0], f"bar charts without a bar: {[m for m in marks if m[2] == 0]}"
    tables = "table.unparsed, table.matrix, table.metrics"
    assert not driver.execute_script(_MISALIGNED, tables)
    assert not driver.execute_script(_EMPTY_COLUMNS, tables)
    headers = driver.execute_script(
        "return Array.from(document.querySelectorAll('table.matrix')).map(t => t.querySelector('thead').innerText)"
    )
    assert any("unparsed" in h for h in headers), headers
    body_family = driver.execute_script("return getComputedStyle(document.body).fontFamily")
    assert driver.execute_script(_CJK_GLYPHS_DIFFER, body_family), (
        f"Chinese drawn as boxes with {body_family}: install a CJK font (Debian: fonts-noto-cjk)"
    )
    assert not _severe(driver)
    assert not _remote_requests(driver)
