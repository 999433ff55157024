"""Bad-input corpus: each malformed input gives ONE stderr line naming the file and the
line/field and what was expected, exit code 2, and no output file.

The real CLI runs as a subprocess (``python -m trustmh``); each case creates its files in
a fresh folder. The cases live in ``tests/hardening/bad_input/``, one module per command family.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from tests.hardening.bad_input import CASES, FAST_CASE_IDS
from tests.hardening.hardening_cli import TEST_KEY, Case, Files, isolated_env, run_cli
from trustmh.core.locks import exclusive


def _write(root: Path, files: Files) -> None:
    for relative, content in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


def _leftovers(root: Path, output: str) -> list[str]:
    path = root / output
    if not path.exists():
        return []
    if path.is_file():
        return [str(path)]
    return [str(p) for p in path.rglob("*") if p.is_file()]


def _marks(case: Case) -> tuple:
    return case.marks if case.id in FAST_CASE_IDS else (*case.marks, pytest.mark.slow)


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id, marks=_marks(c)) for c in CASES])
def test_bad_input(case: Case, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    _write(tmp_path, case.files)
    if case.setup is not None:
        case.setup(tmp_path)
    with contextlib.ExitStack() as stack:
        if case.hold is not None:  # another run holds this lock while the command runs
            stack.enter_context(exclusive(tmp_path / case.hold, "the other run"))
        result = run_cli(case.args, tmp_path, isolated_env(home, **case.env), timeout=120)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    assert len(lines) == 1, result.stderr[-2000:]
    (line,) = lines
    assert line.startswith("error: "), line
    assert "Traceback" not in result.stderr
    for expected in case.expected:
        assert expected in line, (expected, line)
    assert TEST_KEY not in result.stderr + result.stdout
    for output in case.outputs:
        assert _leftovers(tmp_path, output) == [], output


def test_corpus_size() -> None:
    assert len(CASES) >= 100 and len([c for c in CASES if not c.marks]) >= 90
