"""Regenerate ``data/ppi_reference.json``: ppi_py's PPI++ numbers on fixed inputs.

Run with ppi-python installed (``pip install ppi-python==0.2.3``; not a dependency of
trustmh: it pulls numba and statsmodels)::

    python tests/stats/make_ppi_reference.py

The inputs are stored in the file too, so the test does not depend on numpy's generator.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

OUT = Path(__file__).with_name("data") / "ppi_reference.json"


def cases() -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(29)

    def scale(n: int, big_n: int, noise: float, shift: float, slope: float = 1.0) -> tuple:
        truth = rng.integers(1, 6, n + big_n).astype(float)
        judge = np.clip(np.round(slope * truth + shift + rng.normal(0, noise, n + big_n)), 1, 5)
        return truth[:n], judge[:n], judge[n:]

    binary_truth = (rng.random(400) < 0.3).astype(float)
    binary_judge = np.where(rng.random(400) < 0.85, binary_truth, 1 - binary_truth)
    noise_truth = rng.normal(3, 1, 250).round(2)
    return {
        "scale_good_judge_biased_up": scale(40, 360, 0.6, 0.7),
        "scale_noisy_judge": scale(25, 500, 2.0, 0.0),
        "scale_compressed_judge_lambda_clipped_to_1": scale(60, 200, 0.1, 2.5, slope=0.3),
        "binary_rate": (binary_truth[:50], binary_judge[:50], binary_judge[50:]),
        "uninformative_judge_lambda_0": (
            noise_truth[:50],
            rng.normal(3, 1, 50).round(2),
            rng.normal(3, 1, 200).round(2),
        ),
        "anti_correlated_judge_lambda_0": (
            noise_truth[:30],
            (6 - noise_truth[:30]).round(2),
            rng.normal(3, 1, 100).round(2),
        ),
    }


def main() -> None:
    import ppi_py

    out = {"ppi_python": ppi_py.__version__ if hasattr(ppi_py, "__version__") else "0.2.3", "cases": {}}
    for name, (y, f, f_unlabelled) in cases().items():
        estimate = ppi_py.ppi_mean_pointestimate(y, f, f_unlabelled, lam=None)
        low, high = ppi_py.ppi_mean_ci(y, f, f_unlabelled, alpha=0.05, lam=None)
        plain_low, plain_high = ppi_py.ppi_mean_ci(y, f, f_unlabelled, alpha=0.05, lam=1)
        out["cases"][name] = {
            "labels": y.tolist(),
            "judged": f.tolist(),
            "judged_unlabelled": f_unlabelled.tolist(),
            "estimate": float(np.asarray(estimate).ravel()[0]),
            "ci": [float(np.asarray(low).ravel()[0]), float(np.asarray(high).ravel()[0])],
            "ci_lam_1": [float(np.asarray(plain_low).ravel()[0]), float(np.asarray(plain_high).ravel()[0])],
        }
    lines = ",\n".join(f"  {json.dumps(name)}: {json.dumps(case)}" for name, case in out["cases"].items())
    OUT.write_text(f'{{"ppi_python": {json.dumps(out["ppi_python"])}, "cases": {{\n{lines}\n}}}}\n')  # a case a line
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
