"""Gwet's AC1/AC2, Fleiss' generalised kappa, Cohen's weighted kappa (trustmh.stats.chance_agreement)
and Krippendorff's alpha (trustmh.stats.krippendorff) against irrCAC's numbers on the same tables
(``data/irrcac_reference.json``, made by ``make_irrcac_reference.py`` with irrCAC 0.4.4), and
against irrCAC itself when it is installed."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from trustmh.stats.chance_agreement import (
    agreement_weights,
    cohen_weighted,
    confusion_matrix,
    fleiss_weighted,
    gwet_ac,
)
from trustmh.stats.krippendorff import interval_alpha, nominal_alpha

REFERENCE = json.loads((Path(__file__).with_name("data") / "irrcac_reference.json").read_text(encoding="utf-8"))
CASES = [(name, weights) for name in REFERENCE for weights in ("identity", "quadratic", "linear")]


def _codes(name: str) -> tuple[np.ndarray, list[float]]:
    entry = REFERENCE[name]
    values = [float(c) for c in entry["categories"]]
    ratings = np.array([[np.nan if v is None else v for v in row] for row in entry["ratings"]], dtype=float)
    codes = np.vectorize(lambda v: np.nan if np.isnan(v) else float(values.index(v)), otypes=[float])(ratings)
    return codes, values


@pytest.mark.parametrize(("name", "kind"), CASES)
def test_gwet_and_fleiss_equal_irrcac(name: str, kind: str) -> None:
    codes, values = _codes(name)
    weights = agreement_weights(values, kind)
    expected = REFERENCE[name][kind]
    assert gwet_ac(codes, weights) == pytest.approx(expected["gwet"], abs=1e-9)
    assert fleiss_weighted(codes, weights) == pytest.approx(expected["fleiss"], abs=1e-9)


@pytest.mark.parametrize(("name", "kind"), CASES)
def test_cohen_weighted_per_pair_equals_irrcac_conger_of_two_raters(name: str, kind: str) -> None:
    codes, values = _codes(name)
    weights = agreement_weights(values, kind)
    for a, b in combinations(range(codes.shape[1]), 2):
        expected = REFERENCE[name][kind]["pairs"][f"{a},{b}"]
        assert cohen_weighted(codes[:, a], codes[:, b], weights) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("name", list(REFERENCE))
def test_krippendorff_nominal_and_interval_equal_irrcac(name: str) -> None:
    codes, values = _codes(name)
    raw = np.where(np.isfinite(codes), np.take(values, np.nan_to_num(codes).astype(int)), np.nan)
    assert nominal_alpha(codes.T, len(values)) == pytest.approx(REFERENCE[name]["identity"]["krippendorff"], abs=1e-9)
    assert interval_alpha(raw.T) == pytest.approx(REFERENCE[name]["quadratic"]["krippendorff"], abs=1e-9)


def test_ac1_stays_high_where_kappa_collapses_on_a_rare_event() -> None:
    codes, values = _codes("binary_rare")
    identity = agreement_weights(values, "identity")
    assert gwet_ac(codes, identity) > 0.9
    assert fleiss_weighted(codes, identity) < 0.7


def test_confusion_matrix_counts_items_both_rated() -> None:
    a = np.array([0, 1, 1, np.nan, 2])
    b = np.array([0, 1, 2, 1, np.nan])
    assert confusion_matrix(a, b, 3).tolist() == [[1, 0, 0], [0, 1, 1], [0, 0, 0]]


def test_live_irrcac_when_installed() -> None:
    pd = pytest.importorskip("pandas")
    raw = pytest.importorskip("irrCAC.raw", reason="irrCAC lives in its own environment (see make_irrcac_reference.py)")
    codes, values = _codes("labels_missing")
    weights = agreement_weights(values, "identity")
    live = raw.CAC(pd.DataFrame(codes), weights="identity", categories=[0.0, 1.0, 2.0], digits=12)
    assert gwet_ac(codes, weights) == pytest.approx(live.gwet()["est"]["coefficient_value"], abs=1e-9)
