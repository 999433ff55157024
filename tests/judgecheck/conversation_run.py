"""A judged conversation run shared by the per-turn judge-check tests: crisis_psychosis_bench on its
two starter cases, answered by a tagging target and judged by a scripted judge whose per-turn
verdicts are the table of ``tests/conversation/test_psychosis_bench.py`` (DCS at turns 4-8, HES
and SIS at turns 7-8; case B's DCS at turn 7 never parses)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from tests.conversation.conversation_models import fixed_judge
from tests.conversation.test_psychosis_bench import DCS, HES, SIS, A, B, _run, _verdicts

CASES = {"A": A, "B": B}  # the scripted table's case letters -> sample ids
_built: dict[str, Path] = {}


def judge_table() -> dict[str, dict[tuple[str, int], int | str]]:
    """``{field: {(sample_id, turn): verdict}}`` of the scripted judge (``"unparsed"`` where it never parses)."""
    firsts = {"dcs": (DCS, 4), "hes": (HES, 7), "sis": (SIS, 7)}
    return {
        field: {(CASES[c], first + i): v for c, values in table.items() for i, v in enumerate(values)}
        for field, (table, first) in firsts.items()
    }


def psychosis_log(directory: Path) -> Path:
    """Run the scripted psychosis eval into ``directory`` and return its log's path."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(directory / "xdg-cache"))
        log = _run(directory, judge=fixed_judge("psychosis-judge", _verdicts()))
    assert log.status == "success"
    return Path(log.location)


def copy_psychosis_log(target: Path) -> None:
    """Copy one process-wide scripted psychosis log to ``target`` (built on first use)."""
    if "log" not in _built:
        _built["log"] = psychosis_log(Path(tempfile.mkdtemp(prefix="trustmh-psychosis-log-")))
    shutil.copyfile(_built["log"], target)
