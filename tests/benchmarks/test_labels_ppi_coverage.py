"""benchmarks/labels_ppi_coverage.py at a reduced size: the weighted PPI interval covers the true mean
about as often as it should, and reading the stratified labels without weights does not."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def test_reduced_coverage_run() -> None:
    sys.path.insert(0, str(BENCHMARKS))
    try:
        bench = importlib.import_module("labels_ppi_coverage")
        found = bench.coverage("scale", draws=100, items=1500, labels=200, seed=3)
    finally:
        sys.path.remove(str(BENCHMARKS))
        sys.modules.pop("labels_ppi_coverage", None)
    assert found["weighted"] >= 0.88  # 95% nominal; 100 draws leave about +-4 points of noise
    assert found["unweighted"] < 0.5  # the over-drawn flagged stratum biases the unweighted mean
    assert found["pi_flagged"] > 3 * found["pi_other"]
