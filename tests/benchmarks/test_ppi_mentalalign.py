"""The acceptance benchmark's bookkeeping (benchmarks/ppi_mentalalign.py) on synthetic items whose
answer is known: a judge one point too generous is missed by its own CI and corrected by PPI++."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("ppi_mentalalign", BENCHMARKS / "ppi_mentalalign.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["ppi_mentalalign"] = module
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("ppi_mentalalign", None)


def test_cells_and_tally_on_a_generous_judge(bench) -> None:
    rng = np.random.default_rng(3)
    human = rng.integers(1, 6, (4000, 7)).astype(float)
    judge = np.clip(human + 1 + rng.normal(0, 0.4, human.shape).round(), 1, 6)
    human[:5, 0] = np.nan  # an unparsed human cell leaves the item out of that attribute
    rows = bench.run({"j": (human, judge)}, seed=1)
    assert len(rows) == 7 and rows[0][2]["n"] == 3995 and rows[1][2]["n"] == 4000
    assert all(r["n_labelled"] in (399, 400) for _, _, r in rows)  # 10% of the items
    covered, judge_missed, narrower = bench.tally(rows)
    assert judge_missed == 7  # the judge's own CI is a point off
    assert covered >= 6 and narrower == 7
    assert rows[0][2]["truth"] == pytest.approx(np.nanmean(human[:, 0]))  # the full human mean
