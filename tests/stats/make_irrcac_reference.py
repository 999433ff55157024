"""Regenerate ``data/irrcac_reference.json``: irrCAC's agreement coefficients on fixed tables.

irrCAC 0.4.4 pins ``scipy==1.12.0`` and ``pandas<3`` (and so ``numpy<2``), which would move the
project's own numpy/scipy/pandas; it is therefore not a dependency of trustmh. Run it in an
environment of its own::

    python -m venv /tmp/irrcac && /tmp/irrcac/bin/pip install irrCAC==0.4.4
    /tmp/irrcac/bin/python tests/stats/make_irrcac_reference.py

The tables (items x raters, NaN = not rated) are stored in the file too, so the test does not
depend on numpy's generator or on irrCAC being installed.
"""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd
from irrCAC.raw import CAC

OUT = Path(__file__).with_name("data") / "irrcac_reference.json"


def tables() -> dict[str, dict]:
    rng = np.random.default_rng(37)
    truth = rng.integers(1, 6, 40)
    scale = np.column_stack([np.clip(truth + rng.integers(-1, 2, 40), 1, 5) for _ in range(3)]).astype(float)
    scale_missing = scale.copy()
    scale_missing[rng.random(scale.shape) < 0.15] = np.nan
    rare = (rng.random(60) < 0.07).astype(float)  # a rare event: kappa's paradox, AC1 stays high
    binary = np.column_stack([np.where(rng.random(60) < 0.95, rare, 1 - rare) for _ in range(2)])
    labels = rng.integers(0, 3, (30, 4)).astype(float)
    labels[:20, 1] = labels[:20, 0]
    labels[rng.random(labels.shape) < 0.1] = np.nan
    return {
        "scale_complete": {"ratings": scale, "categories": [1, 2, 3, 4, 5]},
        "scale_missing": {"ratings": scale_missing, "categories": [1, 2, 3, 4, 5]},
        "binary_rare": {"ratings": binary, "categories": [0, 1]},
        "labels_missing": {"ratings": labels, "categories": [0, 1, 2]},
    }


def coefficients(ratings: np.ndarray, categories: list[int], weights: str) -> dict:
    frame = pd.DataFrame(ratings)
    cac = CAC(frame, weights=weights, categories=categories, digits=12)
    out = {
        "gwet": cac.gwet()["est"]["coefficient_value"],
        "fleiss": cac.fleiss()["est"]["coefficient_value"],
        "krippendorff": cac.krippendorff()["est"]["coefficient_value"],
        "pairs": {},
    }
    for a, b in combinations(range(ratings.shape[1]), 2):
        both = ratings[np.isfinite(ratings[:, a]) & np.isfinite(ratings[:, b])][:, [a, b]]
        pair = CAC(pd.DataFrame(both), weights=weights, categories=categories, digits=12)
        out["pairs"][f"{a},{b}"] = pair.conger()["est"]["coefficient_value"]
    return out


def main() -> None:
    result = {}
    for name, table in tables().items():
        ratings = table["ratings"]
        entry = {"ratings": [[None if np.isnan(v) else v for v in row] for row in ratings.tolist()]}
        entry["categories"] = table["categories"]
        for weights in ("identity", "quadratic", "linear"):
            entry[weights] = coefficients(ratings, table["categories"], weights)
        result[name] = entry
    OUT.write_text(json.dumps(result) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
