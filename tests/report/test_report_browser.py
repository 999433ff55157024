"""Open the report in headless Chromium: charts drawn, no console errors, usable narrow.

Three pages as a user meets them: one model; three models (one on the starter suite, two
replayed on benchmark data); the alignment section. On each: every chart has drawn content
(an empty chart is a note, not axes), no two texts inside a chart overlap (bounding boxes),
no console error, no page-wide horizontal scroll at 390 px, screenshots saved.

Screenshots go to ``artifacts/report/`` under the repository root (gitignored).
Skips only when Chromium is absent and ``CI`` is unset; under CI a missing browser fails.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.report.browser import CHROMEDRIVER, CHROMIUM, missing_browser
from tests.report.report_helpers import Logs, write_alignment
from tests.report.text_overlap import overlapping_texts
from trustmh.report import build_report

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "report"
# What a drawn plotly chart contains: trace groups (lines, bars, points) or heatmap images.
DRAWN = ".main-svg .trace path, .main-svg .trace .point, .main-svg image, .main-svg .barlayer path"


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


def _load(driver, report: Path, width: int, height: int, expand: bool = True) -> None:
    """Open the page; ``expand``: open every collapsed section, which draws its charts."""
    from selenium.webdriver.support.ui import WebDriverWait

    driver.set_window_size(width, height)
    driver.get(report.as_uri())
    if expand:
        driver.execute_script("document.querySelectorAll('details.more').forEach(d => { d.open = true; })")
    count = driver.execute_script(
        "return document.querySelectorAll(arguments[0] ? '[data-figure]' : "
        "'[data-figure]:not(details:not([open]) [data-figure])').length",
        expand,
    )
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
    tradeoff = [c for c in charts if c[0].startswith("fig-safety-tradeoff")]
    assert len(tradeoff) == 1 and tradeoff[0][1] > 0, f"two-axis safety chart missing or empty: {tradeoff}"
    escalation = [c for c in charts if c[0].startswith("fig-crisis-escalation-tradeoff")]
    assert len(escalation) == 1 and escalation[0][1] > 0, f"escalation chart missing or empty: {escalation}"
    # one point per model (two models have both axes), each labelled with its two rates
    labels = driver.execute_script(
        "return Array.from(document.querySelectorAll('#' + arguments[0] + ' .main-svg .trace text')).map(t => t.textContent)",
        escalation[0][0],
    )
    assert sorted(labels) == ["0.30, 0.35", "0.40, 0.15"], labels
    verdicts = driver.execute_script(
        "return Array.from(document.querySelectorAll('ul.sentences li')).map(li => li.innerText)"
        ".filter(t => t.includes('escalation balance'))"
    )
    assert len(verdicts) == 2 and all("fails mainly by" in v or "no side clearly worse" in v for v in verdicts), (
        verdicts
    )
    # Issue 30: a pillar without its fixed headline is "not scored", the others shown beside it.
    starter = driver.execute_script("return document.getElementById('leaderboard-starter').innerText")
    assert "trustmh/smollm2 · privacy: not scored — needs privacy_psyleak" in starter, starter
    bench = driver.execute_script("return document.querySelector('#leaderboard-benchmark table.ranking').innerText")
    assert bench.count("beside, not ranked: refuse-to-answer rate on jailbreaks (keyword detector") == 2, bench
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
def test_judge_fingerprints_shown(driver, tmp_path: Path) -> None:
    from tests.report.test_judge_fingerprint import TWO_JUDGES, judged_logs

    page = build_report([judged_logs(tmp_path, TWO_JUDGES)], tmp_path / "judged.html")
    _load(driver, page, 1280, 800)
    cells = driver.execute_script(
        "return Array.from(document.querySelectorAll('tr.judge-row td')).map(c => c.innerText)"
    )
    assert len(cells) == 2 and all(c.startswith("judge fp-judge-") and "· rubric " in c for c in cells), cells
    notes = driver.execute_script("return document.querySelector('ul.judge-notes').innerText")
    assert "different judge fingerprints" in notes
    assert not _severe(driver)
    _screenshot(driver, "judge-fingerprints-1280x800")


@pytest.mark.slow
def test_redacted_page_renders(driver, logs: Logs, tmp_path: Path) -> None:
    page = build_report([logs.root], tmp_path / "redacted.html", redact=True)
    _load(driver, page, 1280, 800)
    assert driver.execute_script("return document.querySelectorAll('details.samples table').length") == 0
    assert not _severe(driver)
    _screenshot(driver, "redacted-1280x800")


# Texts inside a chart whose bounding boxes intersect by more than this (px in both directions).
# Every visible text of every chart, with its box; rotated tick labels are left out (their
# axis-aligned boxes overlap by construction although the glyphs do not).
_TEXT_BOXES = """
return Array.from(document.querySelectorAll(arguments[0] + ' [data-figure] .main-svg text')).filter(t => {
  const r = t.getBoundingClientRect();
  const tr = (t.getAttribute('transform') || '') + (t.parentNode.getAttribute('transform') || '');
  return t.textContent.trim() && r.width > 0 && r.height > 0 && !/rotate\\((-?[1-9])/.test(tr);
}).map(t => {
  const r = t.getBoundingClientRect();
  return [t.closest('[data-figure]').id, t.textContent.trim(), r.left, r.top, r.right, r.bottom];
});
"""


def _check_page(driver, page: Path, name: str, scope: str = "body") -> None:
    for width, height in ((1280, 800), (390, 844)):
        _load(driver, page, width, height)
        charts = driver.execute_script(
            "return Array.from(document.querySelectorAll(arguments[1] + ' [data-figure]')).map(el => "
            "[el.id, el.querySelectorAll(arguments[0]).length])",
            DRAWN,
            scope,
        )
        assert charts, f"{name}: no charts"
        assert not [c for c in charts if c[1] == 0], f"{name} at {width}px: charts without drawn content"
        overlaps = overlapping_texts(driver.execute_script(_TEXT_BOXES, scope))
        assert not overlaps, f"{name} at {width}px: overlapping texts {overlaps[:5]}"
        assert driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth") <= 1
        assert not _severe(driver)
        _screenshot(driver, f"{name}-{width}x{height}")


def _copy_logs(results: list, target: Path) -> Path:
    target.mkdir(parents=True, exist_ok=True)
    for result in results:
        shutil.copy(result.path, target / Path(result.path).name)
    return target


# Draws two different Chinese characters with the font the page (or a chart) uses and compares
# the pixels: a browser without a CJK font draws both as the same missing-glyph box (tofu).
_CJK_GLYPHS_DIFFER = """
const family = arguments[0];
function pixels(text) {
  const canvas = document.createElement('canvas');
  canvas.width = 64; canvas.height = 64;
  const context = canvas.getContext('2d');
  context.font = '40px ' + family;
  context.fillText(text, 4, 48);
  return Array.from(context.getImageData(0, 0, 64, 64).data).join(',');
}
return pixels('中') !== pixels('文') && pixels('情') !== pixels('绪');
"""


@pytest.mark.slow
def test_page_one_model(driver, logs: Logs, tmp_path: Path) -> None:
    from trustmh.report import collect

    mine = [r for r in collect([logs.root]).results if r.model == "trustmh/replay/model-a"]
    page = build_report([_copy_logs(mine, tmp_path / "one")], tmp_path / "one.html")
    _check_page(driver, page, "page-one-model")
    # Issue 30: one model is not ranked ("rank 1" everywhere) and its pillars count out of eight.
    board = driver.execute_script("return document.querySelector('.leaderboard').innerText")
    assert "One model only: no ranking" in board and "rank 1" not in board and "tie group" not in board
    assert "/8" in board
    # The page's own text uses the font stack with a CJK font, and it draws Chinese as glyphs.
    body_family = driver.execute_script("return getComputedStyle(document.body).fontFamily")
    assert "Noto Sans CJK SC" in body_family
    assert driver.execute_script(_CJK_GLYPHS_DIFFER, body_family), f"Chinese drawn as boxes with {body_family}"


@pytest.mark.slow
def test_chinese_labels_are_drawn_with_a_cjk_font(driver, tmp_path: Path) -> None:
    """Issue 30: Chinese labels rendered as boxes. The page's and the charts' font stacks name a
    CJK font, and with one installed (Debian: fonts-noto-cjk, installed by .ci/run) two different
    characters come out as different glyphs, in the page and in a chart with a Chinese label."""
    import plotly.graph_objects as go

    from trustmh.core.plotting import CJK_FONTS, style_layout

    figure = style_layout(go.Figure(go.Bar(x=["焦虑", "抑郁"], y=[0.4, 0.6])), "情绪识别 · 中文标签")
    page = tmp_path / "chinese.html"
    page.write_text(
        "<html><head><meta charset='utf-8'></head><body><p>情绪识别</p>"
        + figure.to_html(full_html=False, include_plotlyjs=True, div_id="cjk")
        + "</body></html>",
        encoding="utf-8",
    )
    driver.set_window_size(1000, 700)
    driver.get(page.as_uri())
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 30).until(lambda d: d.execute_script("return document.querySelector('#cjk .main-svg')"))
    chart_family = driver.execute_script(
        "return getComputedStyle(document.querySelector('#cjk .main-svg .gtitle')).fontFamily"
    )
    assert CJK_FONTS.split(",")[0].strip('"') in chart_family
    assert driver.execute_script(_CJK_GLYPHS_DIFFER, chart_family), f"no CJK glyphs with {chart_family}"
    _screenshot(driver, "chinese-labels-1000x700")


@pytest.mark.slow
def test_page_three_models_starter_and_benchmark(driver, logs: Logs, shared_data: Path, tmp_path: Path) -> None:
    from trustmh.report import collect
    from trustmh.run.config import RunConfig
    from trustmh.run.runner import run_tasks

    starter = [r for r in collect([logs.real]).results if r.model == "trustmh/replay/model-a"]
    folder = _copy_logs(starter, tmp_path / "three")
    run_tasks(
        RunConfig(
            tasks=("ethics_ethicmh", "privacy_confaide_tier1"),
            models=("trustmh/replay/gpt-4o-mini", "trustmh/replay/gpt-5.1"),
            model_args={"responses": str(shared_data / "replay_trustmh")},
            log_dir=folder,
            data_dir=str(shared_data),
            source="benchmark",
            display="none",
            write_report=False,
        )
    )
    page = build_report([folder], tmp_path / "three.html")
    text = page.read_text(encoding="utf-8")
    assert "Benchmark leaderboard" in text and "Starter-suite leaderboard" in text
    _check_page(driver, page, "page-three-models")


@pytest.mark.slow
def test_page_alignment_section(driver, logs: Logs, tmp_path: Path) -> None:
    page = build_report([logs.real], tmp_path / "align.html", align_json=write_alignment(tmp_path / "align.json"))
    _check_page(driver, page, "page-alignment", scope="#alignment")


@pytest.mark.slow
def test_page_judge_validation_beside_judged_metrics(driver, tmp_path: Path) -> None:
    from tests.judgecheck.judged_run import human_file, judged_safety_log
    from trustmh.core.files import json_text
    from trustmh.judgecheck import check
    from trustmh.judgecheck.ratings import read_ratings
    from trustmh.judgecheck.verdicts import from_log

    log, ids = judged_safety_log(tmp_path)
    human = human_file(tmp_path / "human.csv", ids)
    validation = tmp_path / "validation.json"
    validation.write_text(json_text(check(read_ratings(human), str(human), from_log(log)).to_json()), encoding="utf-8")
    page = build_report([log.parent], tmp_path / "validated.html", judge_validation=[validation])
    _check_page(driver, page, "page-judge-validation")
    _load(driver, page, 1280, 800)
    shown = driver.execute_script(
        "return Array.from(document.querySelectorAll('table.metrics small.judge-validation')).map(el => "
        "[el.closest('tr').querySelector('code').textContent, el.textContent.trim(), el.getBoundingClientRect().height])"
    )
    by_metric = {metric: (text, height) for metric, text, height in shown}
    # the judged mean's corrected value (PPI++) comes first, then the agreement (test_judge_validation)
    corrected, agreement = by_metric["rta_judge"][0].split("; judge vs humans: ")
    assert corrected.startswith("corrected by 23 human labels from human.csv (PPI++, rubric ")
    judge_vs_humans, among_humans = agreement.split("; humans among themselves: ")
    assert judge_vs_humans.startswith("Fleiss' κ 0.94 [") and judge_vs_humans.endswith("n=23, 2 raters")
    assert among_humans.startswith("AC1 ") and among_humans.endswith("n=23")
    assert by_metric["harmfulness"][0] == "unvalidated"
    assert "rta_keyword" not in by_metric  # the keyword detector is not the judge
    assert all(height > 0 for _, height in by_metric.values())  # drawn, not hidden
