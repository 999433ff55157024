"""The real round trip: a Label Studio server started on loopback with its own SQLite database in a
temporary folder, a project with the configuration ``labels export`` generated, the tasks imported
with ``label-studio-sdk``, annotations submitted by two users through the API (one item skipped),
the project exported, read back with ``labels import``, then judge-check and the weighted PPI
correction on the result.

Label Studio cannot share trustmh's environment (label-studio 1.23.2 requires openai<2, trustmh
openai>=3.4), so it runs from its own: ``TRUSTMH_LABEL_STUDIO`` names its ``label-studio``
executable (``.ci/run`` installs it; docs/labels.md), and the SDK calls run in that
environment's Python (tests/labels/label_studio_driver.py). Without it the test is skipped, saying so.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from trustmh.judgecheck import check
from trustmh.judgecheck.ratings import ratings_csv, read_ratings
from trustmh.judgecheck.verdicts import from_log
from trustmh.labels import export_set, import_labels

pytestmark = pytest.mark.slow
ADMIN_TOKEN = "0123456789abcdef0123456789abcdef01234567"
STARTUP_SECONDS = 900  # the first start migrates a fresh SQLite database (2-3 minutes on a busy machine)


def _label_studio() -> Path:
    found = os.environ.get("TRUSTMH_LABEL_STUDIO") or shutil.which("label-studio")
    if not found or not Path(found).is_file():
        pytest.skip("no Label Studio: set TRUSTMH_LABEL_STUDIO to a label-studio executable (see docs/labels.md)")
    return Path(found)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_healthy(url: str, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"Label Studio exited with {server.returncode}: {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"{url}/health", timeout=5) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(3)
    pytest.fail(f"Label Studio did not answer on {url} in {STARTUP_SECONDS} s: {log.read_text()[-2000:]}")


@pytest.fixture
def label_studio(tmp_path: Path) -> object:
    executable = _label_studio()
    port, data = _free_port(), tmp_path / "label-studio"
    url = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "LABEL_STUDIO_BASE_DATA_DIR": str(data),
        "HOME": str(tmp_path / "home"),  # nothing of Label Studio's lands in the user's own folders
        "XDG_DATA_HOME": str(tmp_path / "home" / "data"),
        "LATEST_VERSION_CHECK": "false",  # no call to pypi.org at start
        "COLLECT_ANALYTICS": "false",
        "SENTRY_DSN": "",
        "FRONTEND_SENTRY_DSN": "",
    }
    command = [
        str(executable), "start", "--no-browser", "--internal-host", "127.0.0.1", "-p", str(port), "--host", url,
        "--data-dir", str(data), "--username", "admin@example.com", "--password", "admin-pass-123!",
        "--user-token", ADMIN_TOKEN, "--enable-legacy-api-token",
    ]  # fmt: skip
    log = tmp_path / "label-studio.log"
    with log.open("wb") as out:
        server = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        _wait_healthy(url, server, log)
        yield url, executable.parent / "python", env
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)


def test_label_studio_round_trip(
    label_studio: tuple[str, Path, dict[str, str]], judged_log: Path, tmp_path: Path
) -> None:
    url, python, env = label_studio
    written = export_set(judged_log, tmp_path / "tasks.json", "labelstudio", 10, seed=7, stratify="judge_refused")
    items = written.labelset.items
    answers = {
        "admin": {
            i.item: {"verdict": "refused" if k % 3 else "complied", "harmfulness": 1 + k % 5}
            for k, i in enumerate(items)
        },
        "second": {
            i.item: {"verdict": "refused" if k % 4 else "complied", "harmfulness": 1 + (k + 1) % 5}
            for k, i in enumerate(items)
        },
    }
    cancelled = items[0].item
    spec = {
        "url": url,
        "admin_token": ADMIN_TOKEN,
        "config": (tmp_path / "tasks.config.xml").read_text(encoding="utf-8"),
        "tasks": json.loads((tmp_path / "tasks.json").read_text(encoding="utf-8")),
        "answers": answers,
        "cancel": [cancelled],
        "export": str(tmp_path / "export.json"),
    }
    (tmp_path / "spec.json").write_text(json.dumps(spec), encoding="utf-8")
    driver = Path(__file__).with_name("label_studio_driver.py")
    done = subprocess.run(
        [str(python), str(driver), str(tmp_path / "spec.json")], env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    users = json.loads(done.stdout.strip().splitlines()[-1])
    assert users["tasks"] == 10

    imported = import_labels([tmp_path / "export.json"], tmp_path / "tasks.set.json", log=judged_log)
    ratings_file = tmp_path / "ratings.csv"
    ratings_file.write_text(ratings_csv(imported.ratings), encoding="utf-8")
    admin, second = f"labelstudio-{users['admin']}", f"labelstudio-{users['second']}"
    expected = set()
    for user, rater in (("admin", admin), ("second", second)):
        for item in items:
            if user == "second" and item.item == cancelled:
                continue
            given = answers[user][item.item]
            expected.add((item.sample_id, "verdict", rater, given["verdict"], item.weight))
            expected.add((item.sample_id, "harmfulness", rater, float(given["harmfulness"]), item.weight))
    got = {(r.sample_id, r.field, r.rater, r.value, r.weight) for r in read_ratings(ratings_file)}
    assert got == expected
    assert imported.skipped == {second: 1}

    result = check(read_ratings(ratings_file), str(ratings_file), from_log(judged_log), n_boot=100)
    harm = {f.field: f for f in result.fields}["harmfulness"]
    assert harm.correction is not None and harm.correction["weighted"] is True
    assert (
        harm.correction["n_labelled"] == 10
        and harm.correction["ci"][0] <= harm.correction["estimate"] <= harm.correction["ci"][1]
    )
    assert harm.clinicians is not None and harm.clinicians["raters"] == sorted([admin, second])
    print(
        f"Label Studio round trip: {len(got)} ratings, PPI {harm.correction['estimate']:.3f} {harm.correction['ci']}",
        file=sys.stderr,
    )
