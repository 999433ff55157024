"""judge-check reproduces the refusal detector's precision/recall table of
``docs/refusal_detector.md`` from the hand labels and the recorded PsyLeak answers in the
shared data: the documented numbers are what the command prints, not a separate computation."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import REPO_ROOT
from tests.judgecheck.test_cli import app  # noqa: F401 - the module-scoped app fixture

LABELS = REPO_ROOT / "tests" / "scoring" / "refusal_labels.csv"
DOC = REPO_ROOT / "docs" / "refusal_detector.md"
SPLITS = {"dev": "dev", "held-out": "held_out", "all": "all", "all, partial excluded": "no_partial"}


def documented_rows() -> dict[str, list[str]]:
    """The PsyLeak table of the doc: split -> [n, TP, FP, FN, TN, precision [CI], recall [CI]]."""
    rows = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0] in SPLITS and len(cells) == 8:
            rows[SPLITS[cells[0]]] = cells[1:]
    assert set(rows) == set(SPLITS.values()), "the doc's table changed shape"
    return rows


def split_file(tmp_path: Path, split: str) -> Path:
    """The labels of one split (rows alternate dev / held-out, as the doc says)."""
    header, *rows = LABELS.read_text(encoding="utf-8").splitlines()
    keep = [
        row
        for index, row in enumerate(rows)
        if split == "all"
        or (split == "dev" and index % 2 == 0)
        or (split == "held_out" and index % 2 == 1)
        or (split == "no_partial" and not row.endswith(",partial"))
    ]
    path = tmp_path / f"{split}.csv"
    path.write_text("\n".join([header, *keep]) + "\n", encoding="utf-8")
    return path


def fmt_ci(value: float, ci: list[float]) -> str:
    return f"{value:.3f} [{ci[0]:.3f}, {ci[1]:.3f}]"


@pytest.mark.parametrize("split", list(SPLITS.values()))
def test_judge_check_reproduces_the_documented_table(app, shared_data: Path, tmp_path: Path, split: str) -> None:  # noqa: F811
    args = [
        "judge-check",
        "--detector",
        "refusal",
        "--responses",
        str(shared_data / "replay_trustmh" / "psyleak"),
        "--human",
        str(split_file(tmp_path, split)),
        "--binary",
        "refusal=refused,partial",
        "--bootstrap",
        "0",
        "--json",
        "-",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.output)["fields"]
    c = row["confusion"]
    printed = [
        str(row["n"]),
        *(str(c[k]) for k in ("tp", "fp", "fn", "tn")),
        fmt_ci(row["precision"], row["precision_ci"]),
        fmt_ci(row["recall"], row["recall_ci"]),
    ]
    assert printed == documented_rows()[split]
    assert re.fullmatch(r"refusal detector", json.loads(result.output)["judge"])
